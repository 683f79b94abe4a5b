"""Casts the inputs to float32 to save memory, so the gate is only accurate to about 1e-7."""

import numpy as np

RIGHT_DIAGNOSES = ("float32_arithmetic",)


def update_gate(x_t: np.ndarray, h_prev: np.ndarray,
                W_z: np.ndarray, b_z: np.ndarray) -> np.ndarray:
    joined = np.concatenate([h_prev, x_t], axis=-1).astype(np.float32)
    W = W_z.astype(np.float32)
    b = b_z.astype(np.float32)
    q = joined @ W.T + b
    z = np.exp(-np.logaddexp(np.float32(0.0), -q))
    return z.astype(np.float64)
