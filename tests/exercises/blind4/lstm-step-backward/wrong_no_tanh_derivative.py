"""Mistake: through h_t = o * tanh(c_t) the cell gets dh * o, forgetting the tanh derivative 1 - tanh(c_t)**2."""
import numpy as np


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def lstm_step_backward(x_t, h_prev, c_prev, W, b, dh, dc):
    H = h_prev.shape[-1]
    joined = np.concatenate([h_prev, x_t], axis=-1)
    q = joined @ W.T + b
    i = _sigmoid(q[..., :H])
    f = _sigmoid(q[..., H:2 * H])
    g = np.tanh(q[..., 2 * H:3 * H])
    o = _sigmoid(q[..., 3 * H:])
    c_t = f * c_prev + i * g
    tc = np.tanh(c_t)
    dct = dc + dh * o
    dq = np.concatenate([dct * g * i * (1 - i), dct * c_prev * f * (1 - f),
                         dct * i * (1 - g**2), dh * tc * o * (1 - o)], axis=-1)
    d_joined = dq @ W
    dW = np.atleast_2d(dq).T @ np.atleast_2d(joined)
    db = np.atleast_2d(dq).sum(axis=0)
    return d_joined[..., H:], d_joined[..., :H], dct * f, dW, db


RIGHT_DIAGNOSES = ("tanh_of_cell_derivative_missing",)
