"""Concatenates along axis 0 and computes W_z @ v: right unbatched, fails on a batch of rows."""

import numpy as np

RIGHT_DIAGNOSES = ("axis",)


def update_gate(x_t: np.ndarray, h_prev: np.ndarray,
                W_z: np.ndarray, b_z: np.ndarray) -> np.ndarray:
    v = np.concatenate([h_prev, x_t])
    a = W_z @ v + b_z
    return 1.0 / (1.0 + np.exp(-np.clip(a, -500, 500)))
