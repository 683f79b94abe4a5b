"""Transposed products W @ v: right for one vector, breaks on a batch of rows."""

import numpy as np

RIGHT_DIAGNOSES = ("transpose",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(W_z @ hx + b_z)
    r = _sigmoid(W_r @ hx + b_r)
    h_tilde = np.tanh(W_h @ np.concatenate([r * h_prev, x_t], axis=-1) + b_h)
    return z * h_prev + (1.0 - z) * h_tilde
