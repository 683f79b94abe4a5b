"""Applies the reset gate to the product W_hh h_prev instead of to h_prev before the map."""

import numpy as np

RIGHT_DIAGNOSES = ("reset_after_affine",)


def candidate_state(x_t: np.ndarray, h_prev: np.ndarray, r_t: np.ndarray,
                    W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    H = h_prev.shape[-1]
    W_hh, W_hx = W_h[:, :H], W_h[:, H:]
    return np.tanh(r_t * (h_prev @ W_hh.T) + x_t @ W_hx.T + b_h)
