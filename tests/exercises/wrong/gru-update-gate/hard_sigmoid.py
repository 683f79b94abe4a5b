"""Piecewise-linear 'hard sigmoid' clip(0.2 a + 0.5, 0, 1) instead of the logistic."""

import numpy as np

RIGHT_DIAGNOSES = ("hard_sigmoid",)


def update_gate(x_t, h_prev, W_z, b_z):
    a = np.concatenate([h_prev, x_t], axis=-1) @ W_z.T + b_z
    return np.clip(0.2 * a + 0.5, 0.0, 1.0)
