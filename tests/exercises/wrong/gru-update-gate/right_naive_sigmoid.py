"""Correct: 1 / (1 + exp(-a)) overflows to inf for very negative a but still gives 0."""

import numpy as np


def update_gate(x_t, h_prev, W_z, b_z):
    a = np.concatenate([h_prev, x_t], axis=-1) @ W_z.T + b_z
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-a))
