"""Joins [x_t, h_prev] although W's first H columns act on h_prev."""

import numpy as np

RIGHT_DIAGNOSES = ("swap_concat", "concat_order")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([x_t, h_prev], axis=-1) @ W.T + b
    i, f, g, o = (a[..., k * H:(k + 1) * H] for k in range(4))
    c_t = _sigmoid(f) * c_prev + _sigmoid(i) * np.tanh(g)
    return _sigmoid(o) * np.tanh(c_t), c_t
