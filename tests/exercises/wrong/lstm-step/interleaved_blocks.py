"""Gates read as interleaved rows (reshape to (H, 4)) instead of four row blocks."""

import numpy as np

RIGHT_DIAGNOSES = ("interleaved_blocks",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    a = a.reshape(*a.shape[:-1], H, 4)
    i, f, g, o = (a[..., k] for k in range(4))
    c_t = _sigmoid(f) * c_prev + _sigmoid(i) * np.tanh(g)
    return _sigmoid(o) * np.tanh(c_t), c_t
