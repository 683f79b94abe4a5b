"""Correct: weights split into their h and x columns, a 2-D batch throughout, einsum for the products."""
import numpy as np


def _sig(a):
    out = np.empty_like(a)
    pos = a >= 0
    out[pos] = 1.0 / (1.0 + np.exp(-a[pos]))
    e = np.exp(a[~pos])
    out[~pos] = e / (1.0 + e)
    return out


def gru_step_backward(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h, dh):
    single = h_prev.ndim == 1
    x, h, g = np.atleast_2d(x_t), np.atleast_2d(h_prev), np.atleast_2d(dh)
    H = h.shape[1]
    Uz, Vz = W_z[:, :H], W_z[:, H:]
    Ur, Vr = W_r[:, :H], W_r[:, H:]
    Uh, Vh = W_h[:, :H], W_h[:, H:]
    z = _sig(np.einsum("nj,ij->ni", h, Uz) + np.einsum("nj,ij->ni", x, Vz) + b_z)
    r = _sig(np.einsum("nj,ij->ni", h, Ur) + np.einsum("nj,ij->ni", x, Vr) + b_r)
    s = r * h
    c = np.tanh(np.einsum("nj,ij->ni", s, Uh) + np.einsum("nj,ij->ni", x, Vh) + b_h)

    gz = g * (h - c) * z * (1.0 - z)
    gc = g * (1.0 - z) * (1.0 - c * c)
    gs = np.einsum("ni,ij->nj", gc, Uh)
    gr = gs * h * r * (1.0 - r)

    dx = np.einsum("ni,ij->nj", gc, Vh) + np.einsum("ni,ij->nj", gz, Vz) + np.einsum("ni,ij->nj", gr, Vr)
    dhp = g * z + gs * r + np.einsum("ni,ij->nj", gz, Uz) + np.einsum("ni,ij->nj", gr, Ur)

    def weight_grad(delta, left):
        return np.hstack([np.einsum("ni,nj->ij", delta, left), np.einsum("ni,nj->ij", delta, x)])

    grads = (weight_grad(gz, h), gz.sum(0), weight_grad(gr, h), gr.sum(0), weight_grad(gc, s), gc.sum(0))
    if single:
        dx, dhp = dx[0], dhp[0]
    return (dx, dhp, *grads)
