"""A correct alternative: one row at a time, each weight split into state and input columns."""

import numpy as np


def _sigmoid(a):
    out = np.empty_like(a)
    pos = a >= 0
    out[pos] = 1.0 / (1.0 + np.exp(-a[pos]))
    e = np.exp(a[~pos])
    out[~pos] = e / (1.0 + e)
    return out


def gru_step_backward(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h, dh):
    H = h_prev.shape[-1]
    Wzh, Wzx = W_z[:, :H], W_z[:, H:]
    Wrh, Wrx = W_r[:, :H], W_r[:, H:]
    Whh, Whx = W_h[:, :H], W_h[:, H:]
    hs, xs, gs = np.atleast_2d(h_prev), np.atleast_2d(x_t), np.atleast_2d(dh)
    dhs, dxs = np.zeros_like(hs), np.zeros_like(xs)
    dWz, dWr, dWh = np.zeros_like(W_z), np.zeros_like(W_r), np.zeros_like(W_h)
    dbz, dbr, dbh = np.zeros_like(b_z), np.zeros_like(b_r), np.zeros_like(b_h)
    for k in range(hs.shape[0]):
        h, x, g = hs[k], xs[k], gs[k]
        z = _sigmoid(Wzh @ h + Wzx @ x + b_z)
        r = _sigmoid(Wrh @ h + Wrx @ x + b_r)
        rh = r * h
        n = np.tanh(Whh @ rh + Whx @ x + b_h)
        a_n = g * (1.0 - z) * (1.0 - n * n)
        a_z = g * (h - n) * z * (1.0 - z)
        g_rh = Whh.T @ a_n
        a_r = g_rh * h * r * (1.0 - r)
        dhs[k] = g * z + g_rh * r + Wzh.T @ a_z + Wrh.T @ a_r
        dxs[k] = Whx.T @ a_n + Wzx.T @ a_z + Wrx.T @ a_r
        dWz[:, :H] += np.outer(a_z, h)
        dWz[:, H:] += np.outer(a_z, x)
        dWr[:, :H] += np.outer(a_r, h)
        dWr[:, H:] += np.outer(a_r, x)
        dWh[:, :H] += np.outer(a_n, rh)
        dWh[:, H:] += np.outer(a_n, x)
        dbz += a_z
        dbr += a_r
        dbh += a_n
    if h_prev.ndim == 1:
        dhs, dxs = dhs[0], dxs[0]
    return dxs, dhs, dWz, dbz, dWr, dbr, dWh, dbh
