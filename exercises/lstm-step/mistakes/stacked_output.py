"""h_t and c_t returned as one stacked array (np.stack or np.array of the pair) instead of a
tuple of two arrays."""

import numpy as np

HINT = ("Your values are right but they come back as one array with an extra leading axis of "
        "size 2. Return the two arrays themselves, as a tuple (h_t, c_t), without stacking "
        "them.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    i = _sigmoid(a[..., 0 * H:1 * H])
    f = _sigmoid(a[..., 1 * H:2 * H])
    g = np.tanh(a[..., 2 * H:3 * H])
    o = _sigmoid(a[..., 3 * H:4 * H])
    c_t = f * c_prev + i * g
    return np.stack([o * np.tanh(c_t), c_t])
