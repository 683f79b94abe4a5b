"""float32 arithmetic, cast back to float64 at the end."""

import numpy as np


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))  # stays float32 for float32 input


HINT = ("Your values agree with the expected ones to about 7 significant digits, then drift. "
        "That is the precision of float32: somewhere the arrays were converted to single "
        "precision (np.float32, astype, dtype=...). Keep every step in float64.")


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    joined = np.concatenate([h_prev, x_t], axis=-1).astype(np.float32)
    a = joined @ W.astype(np.float32).T + b.astype(np.float32)
    i = _sigmoid(a[..., 0 * H:1 * H])
    f = _sigmoid(a[..., 1 * H:2 * H])
    g = np.tanh(a[..., 2 * H:3 * H])
    o = _sigmoid(a[..., 3 * H:4 * H])
    c_t = f * c_prev.astype(np.float32) + i * g
    return (o * np.tanh(c_t)).astype(np.float64), c_t.astype(np.float64)
