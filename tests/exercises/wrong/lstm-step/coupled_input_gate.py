"""Input gate replaced by 1 - f (a coupled-gate LSTM), block i unused."""

import numpy as np

RIGHT_DIAGNOSES = ("coupled_input_gate",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def _blocks(x_t, h_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    return [a[..., k * H:(k + 1) * H] for k in range(4)]


def lstm_step(x_t, h_prev, c_prev, W, b):
    _, f, g, o = _blocks(x_t, h_prev, W, b)
    f = _sigmoid(f)
    c_t = f * c_prev + (1.0 - f) * np.tanh(g)
    return _sigmoid(o) * np.tanh(c_t), c_t
