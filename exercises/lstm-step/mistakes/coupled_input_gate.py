"""Input gate replaced by 1 - f (a coupled-gate LSTM); the i block of W is never read."""

import numpy as np

HINT = ("Your cell writes 1 - f of the candidate, as a GRU would. The LSTM has an input gate "
        "of its own, computed from its own block of W; nothing forces keeping and writing to "
        "add up to one.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    f = _sigmoid(a[..., 1 * H:2 * H])
    g = np.tanh(a[..., 2 * H:3 * H])
    o = _sigmoid(a[..., 3 * H:4 * H])
    c_t = f * c_prev + (1.0 - f) * g
    return o * np.tanh(c_t), c_t
