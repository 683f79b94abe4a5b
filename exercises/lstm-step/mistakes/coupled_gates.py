import numpy as np


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


HINT = ("Your cell keeps 1 - i of the old value, as a GRU would. The LSTM has a forget gate of "
        "its own, computed from its own block of W; nothing forces keeping and writing to "
        "add up to one.")


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    i = _sigmoid(a[..., 0 * H:1 * H])
    g = np.tanh(a[..., 2 * H:3 * H])
    o = _sigmoid(a[..., 3 * H:4 * H])
    c_t = (1.0 - i) * c_prev + i * g
    return o * np.tanh(c_t), c_t
