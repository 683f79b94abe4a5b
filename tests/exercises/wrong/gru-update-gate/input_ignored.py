"""Input dropped: only the first H columns of W_z act, on h_prev."""

import numpy as np

RIGHT_DIAGNOSES = ("input_ignored",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def update_gate(x_t, h_prev, W_z, b_z):
    H = h_prev.shape[-1]
    return _sigmoid(h_prev @ W_z[:, :H].T + b_z)
