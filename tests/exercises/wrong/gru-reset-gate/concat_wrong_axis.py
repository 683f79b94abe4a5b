"""np.concatenate without axis=-1: joins a batch along the batch axis."""

import numpy as np

RIGHT_DIAGNOSES = ("axis",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def reset_gate(x_t, h_prev, W_r, b_r):
    r = _sigmoid(np.concatenate([h_prev, x_t]) @ W_r.T + b_r)
    return r, r * h_prev
