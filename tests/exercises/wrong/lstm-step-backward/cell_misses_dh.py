"""Uses dc alone as the cell's gradient, forgetting what reaches c_t through h_t = o * tanh(c_t)."""

import numpy as np

RIGHT_DIAGNOSES = ("drop_term",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def lstm_step_backward(x_t, h_prev, c_prev, W, b, dh, dc):
    H = h_prev.shape[-1]
    hx = np.concatenate([h_prev, x_t], axis=-1)
    a = hx @ W.T + b
    i = _sigmoid(a[..., :H])
    f = _sigmoid(a[..., H:2 * H])
    g = np.tanh(a[..., 2 * H:3 * H])
    o = _sigmoid(a[..., 3 * H:])
    c = f * c_prev + i * g
    tc = np.tanh(c)

    do = dh * tc
    dct = dc
    da = np.concatenate([dct * g * i * (1 - i), dct * c_prev * f * (1 - f),
                         dct * i * (1 - g**2), do * o * (1 - o)], axis=-1)
    dhx = da @ W
    da2 = np.atleast_2d(da)
    return (dhx[..., H:], dhx[..., :H], dct * f,
            da2.T @ np.atleast_2d(hx), da2.sum(axis=0))
