"""Ignores the reset gate: concatenates the raw h_prev instead of r_t * h_prev."""

import numpy as np

RIGHT_DIAGNOSES = ("reset_ignored",)


def candidate_state(x_t: np.ndarray, h_prev: np.ndarray, r_t: np.ndarray,
                    W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    joined = np.concatenate([h_prev, x_t], axis=-1)
    return np.tanh(joined @ W_h.T + b_h)
