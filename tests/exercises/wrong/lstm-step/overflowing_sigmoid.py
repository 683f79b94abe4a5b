"""Sigmoid as exp(a) / (1 + exp(a)): inf / inf = NaN once a > 709."""

import numpy as np

RIGHT_DIAGNOSES = ("overflowing_sigmoid",)


def _sigmoid(a):
    return np.exp(a) / (1.0 + np.exp(a))


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    i, f, g, o = (a[..., k * H:(k + 1) * H] for k in range(4))
    c_t = _sigmoid(f) * c_prev + _sigmoid(i) * np.tanh(g)
    return _sigmoid(o) * np.tanh(c_t), c_t
