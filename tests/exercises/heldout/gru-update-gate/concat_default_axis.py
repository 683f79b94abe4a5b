"""Concatenates with the default axis 0 instead of the last axis, which breaks batches."""

import numpy as np

RIGHT_DIAGNOSES = ("axis",)


def update_gate(x_t: np.ndarray, h_prev: np.ndarray,
                W_z: np.ndarray, b_z: np.ndarray) -> np.ndarray:
    joined = np.concatenate([h_prev, x_t])
    q = joined @ W_z.T + b_z
    return np.exp(-np.logaddexp(0.0, -q))
