# expect: verdict=failed score=0 diagnosis=none
"""A learner who differentiates the gate nonlinearities by the complex step, one gate block at
a time (the units of a block are decoupled: one forward pass gives a whole block), and writes
only the linear chain rule: exact to rounding, so refused by the rule against complex numbers."""

import numpy as np


def lstm_step_backward(x_t, h_prev, c_prev, W, b, dh, dc, step=1e-20):
    H = h_prev.shape[-1]
    hx = np.concatenate([h_prev, x_t], axis=-1)
    a = hx @ W.T + b

    def local_loss(pre):
        i, f, o = (1.0 / (1.0 + np.exp(-pre[..., k * H:(k + 1) * H])) for k in (0, 1, 3))
        c_t = f * c_prev + i * np.tanh(pre[..., 2 * H:3 * H])
        return o * np.tanh(c_t) * dh + c_t * dc

    da = np.zeros_like(a)
    for k in range(4):
        pre = a.astype(complex)
        pre[..., k * H:(k + 1) * H] += 1j * step
        da[..., k * H:(k + 1) * H] = local_loss(pre).imag / step
    f = 1.0 / (1.0 + np.exp(-a[..., H:2 * H]))
    o = 1.0 / (1.0 + np.exp(-a[..., 3 * H:]))
    c_t = f * c_prev + 1.0 / (1.0 + np.exp(-a[..., :H])) * np.tanh(a[..., 2 * H:3 * H])
    dc_t = dc + dh * o * (1.0 - np.tanh(c_t) ** 2)
    dhx = da @ W
    dW = np.atleast_2d(da).T @ np.atleast_2d(hx)
    return dhx[..., H:], dhx[..., :H], dc_t * f, dW, np.atleast_2d(da).sum(axis=0)
