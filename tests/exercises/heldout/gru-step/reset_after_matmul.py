"""Applies the reset gate after the product: r_t * (U_h h_prev) instead of U_h (r_t * h_prev)."""

import numpy as np

RIGHT_DIAGNOSES = ("reset_after_affine",)


def sigmoid(a: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step(x_t: np.ndarray, h_prev: np.ndarray,
             W_z: np.ndarray, b_z: np.ndarray,
             W_r: np.ndarray, b_r: np.ndarray,
             W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    H = h_prev.shape[-1]
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = sigmoid(hx @ W_z.T + b_z)
    r = sigmoid(hx @ W_r.T + b_r)
    h_tilde = np.tanh(r * (h_prev @ W_h[:, :H].T) + x_t @ W_h[:, H:].T + b_h)
    return z * h_prev + (1 - z) * h_tilde
