"""Row blocks read as i, g, f, o (TensorFlow's LSTMCell order): forget gate and candidate
exchanged."""

import numpy as np

HINT = ("Your gates are plausible but the blocks of W are read in the wrong order. Frameworks "
        "disagree on how they stack the four blocks; this exercise fixes one order. Which "
        "block of rows belongs to the forget gate and which to the candidate?")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    i, g, f, o = (a[..., k * H:(k + 1) * H] for k in range(4))
    c_t = _sigmoid(f) * c_prev + _sigmoid(i) * np.tanh(g)
    return _sigmoid(o) * np.tanh(c_t), c_t
