# expect: verdict=failed score=0 diagnosis=none
"""A learner who differentiates the gate nonlinearities by forward differences, one gate block at
a time (the units of a block are decoupled: one forward pass gives a whole block), and writes
only the linear chain rule: one forward pass a block, right to about 1e-7, and
as fast as the reference. Every case but the wide and the saturated ones asks for rtol=1e-11."""

import numpy as np


def lstm_step_backward(x_t, h_prev, c_prev, W, b, dh, dc, step=1.5e-8):
    H = h_prev.shape[-1]
    hx = np.concatenate([h_prev, x_t], axis=-1)
    a = hx @ W.T + b

    def local_loss(pre):
        i, f, o = (1.0 / (1.0 + np.exp(-pre[..., k * H:(k + 1) * H])) for k in (0, 1, 3))
        c_t = f * c_prev + i * np.tanh(pre[..., 2 * H:3 * H])
        return o * np.tanh(c_t) * dh + c_t * dc

    base = local_loss(a)
    da = np.zeros_like(a)
    for k in range(4):
        up = a.copy()
        up[..., k * H:(k + 1) * H] += step
        da[..., k * H:(k + 1) * H] = (local_loss(up) - base) / step
    f = 1.0 / (1.0 + np.exp(-a[..., H:2 * H]))
    o = 1.0 / (1.0 + np.exp(-a[..., 3 * H:]))
    c_t = f * c_prev + 1.0 / (1.0 + np.exp(-a[..., :H])) * np.tanh(a[..., 2 * H:3 * H])
    dc_t = dc + dh * o * (1.0 - np.tanh(c_t) ** 2)
    dhx = da @ W
    dW = np.atleast_2d(da).T @ np.atleast_2d(hx)
    return dhx[..., H:], dhx[..., :H], dc_t * f, dW, np.atleast_2d(da).sum(axis=0)
