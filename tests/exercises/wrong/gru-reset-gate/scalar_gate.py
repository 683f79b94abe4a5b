"""One gate value per row (sigmoid of the mean pre-activation) for all H units."""

import numpy as np

RIGHT_DIAGNOSES = ("scalar_gate",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def reset_gate(x_t, h_prev, W_r, b_r):
    a = np.concatenate([h_prev, x_t], axis=-1) @ W_r.T + b_r
    r = np.broadcast_to(_sigmoid(a.mean(axis=-1, keepdims=True)), a.shape).copy()
    return r, r * h_prev
