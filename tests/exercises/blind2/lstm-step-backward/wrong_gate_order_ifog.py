"""Cuts the pre-activations in the order i, f, o, g instead of i, f, g, o."""
import numpy as np


def _sigmoid(a):
    return 0.5 * (1.0 + np.tanh(0.5 * a))


def lstm_step_backward(x_t, h_prev, c_prev, W, b, dh, dc):
    H = h_prev.shape[-1]
    hx = np.concatenate([h_prev, x_t], axis=-1)
    q = hx @ W.T + b
    i = _sigmoid(q[..., 0 * H:1 * H])
    f = _sigmoid(q[..., 1 * H:2 * H])
    o = _sigmoid(q[..., 2 * H:3 * H])
    g = np.tanh(q[..., 3 * H:4 * H])
    c_t = f * c_prev + i * g
    tanh_c = np.tanh(c_t)

    do = dh * tanh_c
    dc_t = dc + dh * o * (1 - tanh_c**2)
    di = dc_t * g
    df = dc_t * c_prev
    dg = dc_t * i
    dc_prev = dc_t * f

    dq = np.concatenate([di * i * (1 - i), df * f * (1 - f), dg * (1 - g**2), do * o * (1 - o)], axis=-1)
    d_hx = dq @ W
    dh_prev = d_hx[..., :H]
    dx_t = d_hx[..., H:]
    DQ, HX = np.atleast_2d(dq), np.atleast_2d(hx)
    dW = DQ.T @ HX
    db = DQ.sum(axis=0)
    return dx_t, dh_prev, dc_prev, dW, db


RIGHT_DIAGNOSES = ("swap_blocks",)
