"""Swaps the gates' parameters: z_t uses W_r, b_r and r_t uses W_z, b_z."""

import numpy as np

RIGHT_DIAGNOSES = ("reset_in_final_mix",)


def _gate(W: np.ndarray, b: np.ndarray, hx: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -(hx @ W.T + b)))


def gru_step(x_t: np.ndarray, h_prev: np.ndarray,
             W_z: np.ndarray, b_z: np.ndarray,
             W_r: np.ndarray, b_r: np.ndarray,
             W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    hx = np.concatenate([h_prev, x_t], axis=-1)
    r = _gate(W_z, b_z, hx)
    z = _gate(W_r, b_r, hx)
    h_tilde = np.tanh(np.concatenate([r * h_prev, x_t], axis=-1) @ W_h.T + b_h)
    return z * h_prev + (1 - z) * h_tilde
