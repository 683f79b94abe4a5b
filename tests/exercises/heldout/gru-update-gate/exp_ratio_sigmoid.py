"""Sigmoid written as e^q / (1 + e^q): inf / inf = NaN for large positive q."""

import numpy as np

RIGHT_DIAGNOSES = ("overflowing_sigmoid",)


def update_gate(x_t: np.ndarray, h_prev: np.ndarray,
                W_z: np.ndarray, b_z: np.ndarray) -> np.ndarray:
    joined = np.concatenate([h_prev, x_t], axis=-1)
    q = joined @ W_z.T + b_z
    e = np.exp(q)
    return e / (1.0 + e)
