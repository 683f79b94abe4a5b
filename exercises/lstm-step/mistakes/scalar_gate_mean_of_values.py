"""One forget-gate value per row (the mean of the gate's values) for all H units."""

import numpy as np

HINT = ("Every cell of yours keeps the same share of its old value. The forget gate is a "
        "vector: each unit has its own row of W and its own bias, and gets its own "
        "sigmoid. Nothing should be summed or averaged over the hidden axis.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    i = _sigmoid(a[..., 0 * H:1 * H])
    f = _sigmoid(a[..., 1 * H:2 * H]).mean(axis=-1, keepdims=True)
    g = np.tanh(a[..., 2 * H:3 * H])
    o = _sigmoid(a[..., 3 * H:4 * H])
    c_t = f * c_prev + i * g
    return o * np.tanh(c_t), c_t
