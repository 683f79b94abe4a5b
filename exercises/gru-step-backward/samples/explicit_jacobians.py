# expect: verdict=passed score=18 diagnosis=none
"""Another correct method: each path written out on its own, the weights split into their
hidden and input columns, and the batch summed with einsum instead of a matrix product."""

import numpy as np


def gru_step_backward(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h, dh):
    H = h_prev.shape[-1]
    Uz, Wz = W_z[:, :H], W_z[:, H:]
    Ur, Wr = W_r[:, :H], W_r[:, H:]
    Uh, Wh = W_h[:, :H], W_h[:, H:]
    z = 0.5 * (1.0 + np.tanh(0.5 * (h_prev @ Uz.T + x_t @ Wz.T + b_z)))
    r = 0.5 * (1.0 + np.tanh(0.5 * (h_prev @ Ur.T + x_t @ Wr.T + b_r)))
    rh = r * h_prev
    c = np.tanh(rh @ Uh.T + x_t @ Wh.T + b_h)

    g_c = dh * (1.0 - z) * (1.0 - c * c)
    g_z = dh * (h_prev - c) * z * (1.0 - z)
    g_rh = g_c @ Uh
    g_r = g_rh * h_prev * r * (1.0 - r)

    dh_prev = dh * z + g_rh * r + g_z @ Uz + g_r @ Ur
    dx_t = g_c @ Wh + g_z @ Wz + g_r @ Wr

    def outer(g, v):
        return np.einsum("ni,nj->ij", g, v) if g.ndim > 1 else np.outer(g, v)

    def total(g):
        return g.sum(axis=0) if g.ndim > 1 else g.copy()

    dW_z = np.concatenate([outer(g_z, h_prev), outer(g_z, x_t)], axis=1)
    dW_r = np.concatenate([outer(g_r, h_prev), outer(g_r, x_t)], axis=1)
    dW_h = np.concatenate([outer(g_c, rh), outer(g_c, x_t)], axis=1)
    return dx_t, dh_prev, dW_z, total(g_z), dW_r, total(g_r), dW_h, total(g_c)
