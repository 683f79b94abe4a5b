"""Concatenates [x_t, r_t * h_prev] with the input first."""

import numpy as np

RIGHT_DIAGNOSES = ("input_first",)


def candidate_state(x_t: np.ndarray, h_prev: np.ndarray, r_t: np.ndarray,
                    W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    joined = np.concatenate([x_t, r_t * h_prev], axis=-1)
    return np.tanh(joined @ W_h.T + b_h)
