"""Correct: np.split into the four gates, a stable two-branch sigmoid, tensordot for the weight gradient."""
import numpy as np


def _sig(a):
    return np.where(a >= 0, 1.0 / (1.0 + np.exp(-np.abs(a))), np.exp(-np.abs(a)) / (1.0 + np.exp(-np.abs(a))))


def lstm_step_backward(x_t, h_prev, c_prev, W, b, dh, dc):
    one = x_t.ndim == 1
    x, h, c0 = np.atleast_2d(x_t), np.atleast_2d(h_prev), np.atleast_2d(c_prev)
    gh, gc = np.atleast_2d(dh), np.atleast_2d(dc)
    v = np.hstack([h, x])
    qi, qf, qg, qo = np.split(np.tensordot(v, W, axes=([1], [1])) + b, 4, axis=1)
    i, f, g, o = _sig(qi), _sig(qf), np.tanh(qg), _sig(qo)
    c1 = f * c0 + i * g
    t = np.tanh(c1)
    cell = gc + gh * o * (1.0 - t * t)
    dq = np.hstack([cell * g * i * (1.0 - i), cell * c0 * f * (1.0 - f), cell * i * (1.0 - g * g),
                    gh * t * o * (1.0 - o)])
    dv = np.tensordot(dq, W, axes=([1], [0]))
    H = h.shape[1]
    dW = np.tensordot(dq, v, axes=([0], [0]))
    out = [dv[:, H:], dv[:, :H], cell * f]
    if one:
        out = [a[0] for a in out]
    return (*out, dW, dq.sum(axis=0))
