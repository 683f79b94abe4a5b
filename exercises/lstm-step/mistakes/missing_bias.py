"""Bias b left out of the affine map."""

import numpy as np


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


HINT = ("Your gates and candidate are off even where the inputs are small, each unit by its "
        "own shift. The four blocks are affine maps with a bias; is every one of the "
        "function's arguments used?")


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T
    i = _sigmoid(a[..., 0 * H:1 * H])
    f = _sigmoid(a[..., 1 * H:2 * H])
    g = np.tanh(a[..., 2 * H:3 * H])
    o = _sigmoid(a[..., 3 * H:4 * H])
    c_t = f * c_prev + i * g
    return o * np.tanh(c_t), c_t
