"""Averages the parameters' gradients over the batch's rows instead of summing them."""

import numpy as np

RIGHT_DIAGNOSES = ("batch_averaged",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step_backward(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h, dh):
    H = h_prev.shape[-1]
    hx = np.atleast_2d(np.concatenate([h_prev, x_t], axis=-1))
    hp, g = np.atleast_2d(h_prev), np.atleast_2d(dh)
    n_rows = hx.shape[0]
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    rhx = np.concatenate([r * hp, hx[:, H:]], axis=1)
    c = np.tanh(rhx @ W_h.T + b_h)

    dz = g * (hp - c) * z * (1.0 - z)
    dc = g * (1.0 - z) * (1.0 - c**2)
    d_rhx = dc @ W_h
    dr = d_rhx[:, :H] * hp * r * (1.0 - r)
    d_hx = dz @ W_z + dr @ W_r
    dh_prev = g * z + d_rhx[:, :H] * r + d_hx[:, :H]
    dx = d_rhx[:, H:] + d_hx[:, H:]
    if h_prev.ndim == 1:
        dh_prev, dx = dh_prev[0], dx[0]
    return (dx, dh_prev,
            dz.T @ hx / n_rows, dz.mean(axis=0),
            dr.T @ hx / n_rows, dr.mean(axis=0),
            dc.T @ rhx / n_rows, dc.mean(axis=0))
