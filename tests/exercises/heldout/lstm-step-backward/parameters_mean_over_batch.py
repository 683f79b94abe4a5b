"""Divides dW and db by the number of rows (a mean over the batch) instead of summing."""

import numpy as np

RIGHT_DIAGNOSES = ("parameters_batch_averaged",)


def sigm(v):
    return np.exp(-np.logaddexp(0.0, -v))


def lstm_step_backward(x_t, h_prev, c_prev, W, b, dh, dc):
    H = h_prev.shape[-1]
    z = np.concatenate([h_prev, x_t], axis=-1)
    q = z @ W.T + b
    i, f, o = sigm(q[..., :H]), sigm(q[..., H:2 * H]), sigm(q[..., 3 * H:])
    g = np.tanh(q[..., 2 * H:3 * H])
    c_t = f * c_prev + i * g
    s = np.tanh(c_t)
    d_c = dc + dh * o * (1 - s * s)
    dq = np.concatenate([d_c * g * i * (1 - i), d_c * c_prev * f * (1 - f),
                         d_c * i * (1 - g * g), dh * s * o * (1 - o)], axis=-1)
    dz = dq @ W
    rows = np.atleast_2d(dq)
    dW = rows.T @ np.atleast_2d(z) / len(rows)
    db = rows.mean(axis=0)
    return dz[..., H:], dz[..., :H], d_c * f, dW, db
