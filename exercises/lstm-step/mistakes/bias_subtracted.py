"""Bias subtracted instead of added: W [h, x] - b."""

import numpy as np


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


HINT = ("Your gates and candidate are shifted the wrong way, each unit by its own amount, as "
        "if the bias pushed against itself. An affine map adds its bias; check the sign "
        "with which b enters.")


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T - b
    i = _sigmoid(a[..., 0 * H:1 * H])
    f = _sigmoid(a[..., 1 * H:2 * H])
    g = np.tanh(a[..., 2 * H:3 * H])
    o = _sigmoid(a[..., 3 * H:4 * H])
    c_t = f * c_prev + i * g
    return o * np.tanh(c_t), c_t
