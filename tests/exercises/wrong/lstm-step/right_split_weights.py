"""Correct: W split into state and input columns, np.split into gates, naive sigmoid."""

import numpy as np


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = h_prev @ W[:, :H].T + x_t @ W[:, H:].T + b
    i, f, g, o = np.split(a, 4, axis=-1)
    with np.errstate(over="ignore"):
        i, f, o = (1.0 / (1.0 + np.exp(-v)) for v in (i, f, o))
    c_t = f * c_prev + i * np.tanh(g)
    return o * np.tanh(c_t), c_t
