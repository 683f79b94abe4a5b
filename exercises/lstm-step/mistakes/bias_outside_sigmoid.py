"""Gate biases added after the sigmoid, sigmoid(W v) + b, for the input, forget and output
gates (the candidate's bias stays inside its tanh)."""

import numpy as np

HINT = ("Your gates can leave the interval (0, 1), which a share cannot do. Check where the "
        "biases enter: everything that shifts a gate belongs inside the squashing function, "
        "so that the result stays between 0 and 1.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T
    i = _sigmoid(a[..., 0 * H:1 * H]) + b[0 * H:1 * H]
    f = _sigmoid(a[..., 1 * H:2 * H]) + b[1 * H:2 * H]
    g = np.tanh(a[..., 2 * H:3 * H] + b[2 * H:3 * H])
    o = _sigmoid(a[..., 3 * H:4 * H]) + b[3 * H:4 * H]
    c_t = f * c_prev + i * g
    return o * np.tanh(c_t), c_t
