"""Writes the sigmoid as 1 / (1 + e^{+q}), so it returns 1 - z_t instead of z_t."""

import numpy as np

RIGHT_DIAGNOSES = ("one_minus_z",)


def update_gate(x_t: np.ndarray, h_prev: np.ndarray,
                W_z: np.ndarray, b_z: np.ndarray) -> np.ndarray:
    joined = np.concatenate([h_prev, x_t], axis=-1)
    q = joined @ W_z.T + b_z
    # stable form of 1 / (1 + exp(q))
    return np.exp(-np.logaddexp(0.0, q))
