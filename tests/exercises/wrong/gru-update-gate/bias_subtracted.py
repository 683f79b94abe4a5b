"""Bias subtracted instead of added: sigmoid(W_z v - b_z)."""

import numpy as np

RIGHT_DIAGNOSES = ("bias_subtracted",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def update_gate(x_t, h_prev, W_z, b_z):
    return _sigmoid(np.concatenate([h_prev, x_t], axis=-1) @ W_z.T - b_z)
