"""W.reshape(H + D, 4H) instead of W.T."""

import numpy as np


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


HINT = ("Your shapes fit but the values do not. Reshaping a (4H, H + D) matrix to (H + D, 4H) "
        "keeps the entries in reading order, so they land in other rows and columns than a "
        "transpose would put them: row k of W must still be the weights of gate unit k.")


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    rows, cols = W.shape
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.reshape(cols, rows) + b
    i = _sigmoid(a[..., 0 * H:1 * H])
    f = _sigmoid(a[..., 1 * H:2 * H])
    g = np.tanh(a[..., 2 * H:3 * H])
    o = _sigmoid(a[..., 3 * H:4 * H])
    c_t = f * c_prev + i * g
    return o * np.tanh(c_t), c_t
