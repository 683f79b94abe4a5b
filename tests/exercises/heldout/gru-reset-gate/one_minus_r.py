"""Computes the reset state as (1 - r_t) * h_prev instead of r_t * h_prev."""

import numpy as np

RIGHT_DIAGNOSES = ("inverted_reset",)


def reset_gate(x_t: np.ndarray, h_prev: np.ndarray,
               W_r: np.ndarray, b_r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    joined = np.concatenate([h_prev, x_t], axis=-1)
    r_t = np.exp(-np.logaddexp(0.0, -(joined @ W_r.T + b_r)))
    return r_t, (1.0 - r_t) * h_prev
