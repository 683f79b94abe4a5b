"""Correct: 1 / (1 + exp(-a)) overflows to inf for very negative a but still gives 0."""

import numpy as np


def reset_gate(x_t, h_prev, W_r, b_r):
    a = np.concatenate([h_prev, x_t], axis=-1) @ W_r.T + b_r
    with np.errstate(over="ignore"):
        r = 1.0 / (1.0 + np.exp(-a))
    return r, r * h_prev
