"""Correct: W_z split by columns, sigmoid written as (1 + tanh(a / 2)) / 2."""

import numpy as np


def update_gate(x_t, h_prev, W_z, b_z):
    H = h_prev.shape[-1]
    a = h_prev @ W_z[:, :H].T + x_t @ W_z[:, H:].T + b_z
    return 0.5 * (1.0 + np.tanh(0.5 * a))
