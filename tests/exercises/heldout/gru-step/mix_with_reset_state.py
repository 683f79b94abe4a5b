"""Mixes with the reset state: h_t = z_t * (r_t * h_prev) + (1 - z_t) * h_tilde."""

import numpy as np

RIGHT_DIAGNOSES = ("reset_state_in_mix",)


def sigmoid(a: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step(x_t: np.ndarray, h_prev: np.ndarray,
             W_z: np.ndarray, b_z: np.ndarray,
             W_r: np.ndarray, b_r: np.ndarray,
             W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = sigmoid(hx @ W_z.T + b_z)
    r = sigmoid(hx @ W_r.T + b_r)
    h = r * h_prev
    h_tilde = np.tanh(np.concatenate([h, x_t], axis=-1) @ W_h.T + b_h)
    return z * h + (1 - z) * h_tilde
