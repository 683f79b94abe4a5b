"""Row blocks read in the order i, g, f, o: forget gate and candidate swapped."""

import numpy as np

RIGHT_DIAGNOSES = ("blocks_igfo",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def _blocks(x_t, h_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    return [a[..., k * H:(k + 1) * H] for k in range(4)]


def lstm_step(x_t, h_prev, c_prev, W, b):
    i, g, f, o = _blocks(x_t, h_prev, W, b)
    c_t = _sigmoid(f) * c_prev + _sigmoid(i) * np.tanh(g)
    return _sigmoid(o) * np.tanh(c_t), c_t
