"""Multiplies W_z @ joined as for a single column vector, which breaks for a batch of rows."""

import numpy as np

RIGHT_DIAGNOSES = ("transpose",)


def update_gate(x_t: np.ndarray, h_prev: np.ndarray,
                W_z: np.ndarray, b_z: np.ndarray) -> np.ndarray:
    joined = np.concatenate([h_prev, x_t], axis=-1)
    q = W_z @ joined + b_z
    return np.exp(-np.logaddexp(0.0, -q))
