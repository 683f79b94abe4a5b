"""Piecewise-linear 'hard sigmoid' clip(0.2 a + 0.5, 0, 1) for the three gates."""

import numpy as np

HINT = ("Your gates are exactly 0 or 1 for moderate pre-activations and a straight line in "
        "between: that is the 'hard sigmoid', a fast piecewise-linear stand-in some libraries "
        "offer. The gates here use the logistic function 1 / (1 + e^-a), smooth everywhere.")


def _sigmoid(a):
    return np.clip(0.2 * a + 0.5, 0.0, 1.0)


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    i = _sigmoid(a[..., 0 * H:1 * H])
    f = _sigmoid(a[..., 1 * H:2 * H])
    g = np.tanh(a[..., 2 * H:3 * H])
    o = _sigmoid(a[..., 3 * H:4 * H])
    c_t = f * c_prev + i * g
    return o * np.tanh(c_t), c_t
