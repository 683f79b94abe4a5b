"""Gives the output gate dh * c_t instead of dh * tanh(c_t), the value o_t multiplies."""

import numpy as np

RIGHT_DIAGNOSES = ("activation_input",)


def _s(a):
    return np.exp(-np.logaddexp(0.0, -a))


def lstm_step_backward(x_t, h_prev, c_prev, W, b, dh, dc):
    H = h_prev.shape[-1]
    v = np.concatenate([h_prev, x_t], axis=-1)
    pre = v @ W.T + b
    gi, gf, gg, go = (pre[..., k * H:(k + 1) * H] for k in range(4))
    i, f, g, o = _s(gi), _s(gf), np.tanh(gg), _s(go)
    c = f * c_prev + i * g
    tc = np.tanh(c)
    dct = dc + dh * o * (1.0 - tc * tc)
    do = dh * c
    dpre = np.concatenate([dct * g * i * (1.0 - i), dct * c_prev * f * (1.0 - f),
                           dct * i * (1.0 - g * g), do * o * (1.0 - o)], axis=-1)
    dv = dpre @ W
    P, V = np.atleast_2d(dpre), np.atleast_2d(v)
    return dv[..., H:], dv[..., :H], dct * f, P.T @ V, P.sum(axis=0)
