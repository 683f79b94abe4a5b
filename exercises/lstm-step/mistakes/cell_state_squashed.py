import numpy as np


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


HINT = ("Your cell state never leaves (-1, 1). The cell is the unbounded long-term memory: it is "
        "a plain sum of what is kept and what is written, and it is squashed only when the "
        "output gate reads it out.")


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    i = _sigmoid(a[..., 0 * H:1 * H])
    f = _sigmoid(a[..., 1 * H:2 * H])
    g = np.tanh(a[..., 2 * H:3 * H])
    o = _sigmoid(a[..., 3 * H:4 * H])
    c_t = np.tanh(f * c_prev + i * g)
    return o * c_t, c_t
