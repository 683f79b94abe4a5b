import numpy as np


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


HINT = ("Your new cell state ignores the previous one, so the LSTM cannot remember anything "
        "beyond one step. The cell state is the long-term memory: which term of its update "
        "carries c_prev forward, and which gate controls it?")


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    i = _sigmoid(a[..., 0 * H:1 * H])
    g = np.tanh(a[..., 2 * H:3 * H])
    o = _sigmoid(a[..., 3 * H:4 * H])
    c_t = i * g
    return o * np.tanh(c_t), c_t
