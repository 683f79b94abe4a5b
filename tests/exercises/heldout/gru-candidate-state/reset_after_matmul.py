"""Applies the reset gate after the product: r_t * (U_h h_prev) instead of U_h (r_t * h_prev)."""

import numpy as np

RIGHT_DIAGNOSES = ("reset_after_affine",)


def candidate_state(x_t: np.ndarray, h_prev: np.ndarray, r_t: np.ndarray,
                    W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    H = h_prev.shape[-1]
    U_h = W_h[:, :H]
    W_x = W_h[:, H:]
    q = r_t * (h_prev @ U_h.T) + x_t @ W_x.T + b_h
    return np.tanh(q)
