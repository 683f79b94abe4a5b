# expect: verdict=failed score=0 diagnosis=none
"""A learner who takes the gates' gradients by the complex step in each bias entry (the rows
of a batch are decoupled: one forward pass gives a column of every row) and writes only the
chain rule through the affine maps: one forward pass per bias entry, fast enough for 'wide
layer', and exact to rounding, so no tolerance tells it apart: refused by the rule against
complex numbers before it runs."""

import numpy as np


def sigmoid(a):
    return 1.0 / (1.0 + np.exp(-a))  # logaddexp takes no complex numbers


def gru_step_backward(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h, dh, step=1e-20):
    H = h_prev.shape[-1]
    biases = {"z": b_z, "r": b_r, "h": b_h}

    def row_losses(b):
        hx = np.concatenate([h_prev, x_t], axis=-1)
        z = sigmoid(hx @ W_z.T + b["z"])
        r = sigmoid(hx @ W_r.T + b["r"])
        h_tilde = np.tanh(np.concatenate([r * h_prev, x_t], axis=-1) @ W_h.T + b["h"])
        return np.sum((z * h_prev + (1.0 - z) * h_tilde) * dh, axis=-1)

    pre = {}
    for name, bias in biases.items():
        pre[name] = np.zeros(np.shape(dh))
        for j in range(H):
            up = {**biases, name: bias.astype(complex)}
            up[name][j] += 1j * step
            pre[name][..., j] = row_losses(up).imag / step
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = sigmoid(hx @ W_z.T + b_z)
    r = sigmoid(hx @ W_r.T + b_r)
    reset_hx = np.concatenate([r * h_prev, x_t], axis=-1)
    d_reset_hx = pre["h"] @ W_h
    d_hx = pre["z"] @ W_z + pre["r"] @ W_r
    dh_prev = dh * z + d_reset_hx[..., :H] * r + d_hx[..., :H]
    dx_t = d_reset_hx[..., H:] + d_hx[..., H:]

    def outer(g, v):
        return np.atleast_2d(g).T @ np.atleast_2d(v)

    return (dx_t, dh_prev,
            outer(pre["z"], hx), np.atleast_2d(pre["z"]).sum(axis=0),
            outer(pre["r"], hx), np.atleast_2d(pre["r"]).sum(axis=0),
            outer(pre["h"], reset_hx), np.atleast_2d(pre["h"]).sum(axis=0))
