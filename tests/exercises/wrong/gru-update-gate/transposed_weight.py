"""Transposed product W_z @ v: right for one vector, breaks on a batch of rows."""

import numpy as np

RIGHT_DIAGNOSES = ("transpose",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def update_gate(x_t, h_prev, W_z, b_z):
    return _sigmoid(W_z @ np.concatenate([h_prev, x_t], axis=-1) + b_z)
