"""Returns np.stack([h_t, c_t]), one array, instead of the tuple (h_t, c_t)."""

import numpy as np

RIGHT_DIAGNOSES = ("stacked_output",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def _blocks(x_t, h_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    return [a[..., k * H:(k + 1) * H] for k in range(4)]


def lstm_step(x_t, h_prev, c_prev, W, b):
    i, f, g, o = _blocks(x_t, h_prev, W, b)
    c_t = _sigmoid(f) * c_prev + _sigmoid(i) * np.tanh(g)
    return np.stack([_sigmoid(o) * np.tanh(c_t), c_t])
