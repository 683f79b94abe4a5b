"""Exchanges the products of c_t = f * c_prev + i * g: di = dc_t * i and dg = dc_t * g."""

import numpy as np

RIGHT_DIAGNOSES = ("input_and_candidate_swapped",)


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
    di = dct * i
    df = dct * c_prev
    dg = dct * g
    do = dh * tc
    dpre = np.concatenate([di * i * (1.0 - i), df * f * (1.0 - f),
                           dg * (1.0 - g * g), do * o * (1.0 - o)], axis=-1)
    dv = dpre @ W
    P, V = np.atleast_2d(dpre), np.atleast_2d(v)
    return dv[..., H:], dv[..., :H], dct * f, P.T @ V, P.sum(axis=0)
