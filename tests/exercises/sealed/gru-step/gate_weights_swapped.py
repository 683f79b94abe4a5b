"""Swaps the two gates' parameters: z is computed with W_r, b_r and r with W_z, b_z."""

import numpy as np

RIGHT_DIAGNOSES = ("reset_in_final_mix",)


def gate(W, b, v):
    return np.exp(-np.logaddexp(0.0, -(v @ W.T + b)))


def gru_step(x_t: np.ndarray, h_prev: np.ndarray,
             W_z: np.ndarray, b_z: np.ndarray,
             W_r: np.ndarray, b_r: np.ndarray,
             W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    v = np.concatenate([h_prev, x_t], axis=-1)
    r = gate(W_z, b_z, v)
    z = gate(W_r, b_r, v)
    h_new = np.tanh(np.concatenate([r * h_prev, x_t], axis=-1) @ W_h.T + b_h)
    return z * h_prev + (1.0 - z) * h_new
