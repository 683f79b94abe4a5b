"""Computes and returns float32 (the dtype check expects float64)."""

import numpy as np

RIGHT_DIAGNOSES = ("float32_arithmetic",)


def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([h_prev, x_t], axis=-1).astype(np.float32)
    a = joined @ W_z.T.astype(np.float32) + b_z.astype(np.float32)
    return 1.0 / (1.0 + np.exp(-a))
