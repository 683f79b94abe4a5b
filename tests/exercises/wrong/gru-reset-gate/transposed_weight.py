"""Transposed product W_r @ v: right for one vector, breaks on a batch of rows."""

import numpy as np

RIGHT_DIAGNOSES = ("transpose",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def reset_gate(x_t, h_prev, W_r, b_r):
    r = _sigmoid(W_r @ np.concatenate([h_prev, x_t], axis=-1) + b_r)
    return r, r * h_prev
