"""Mistake: the new hidden state squashes the old cell state, o * tanh(c_prev), instead of the new one."""
import numpy as np


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    q = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    i = _sigmoid(q[..., :H])
    f = _sigmoid(q[..., H:2 * H])
    g = np.tanh(q[..., 2 * H:3 * H])
    o = _sigmoid(q[..., 3 * H:])
    c_t = f * c_prev + i * g
    return o * np.tanh(c_prev), c_t


RIGHT_DIAGNOSES = ("hidden_from_old_cell",)
