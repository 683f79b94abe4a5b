"""Forgets the candidate's tanh derivative: its pre-activation gradient is dh * (1 - z) alone."""

import numpy as np

RIGHT_DIAGNOSES = ("drop_factor", "drop_derivative")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step_backward(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h, dh):
    H = h_prev.shape[-1]
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    rhx = np.concatenate([r * h_prev, x_t], axis=-1)
    cand = np.tanh(rhx @ W_h.T + b_h)

    d_zpre = dh * (h_prev - cand) * z * (1.0 - z)
    d_cpre = dh * (1.0 - z)
    d_rhx = d_cpre @ W_h
    d_rpre = d_rhx[..., :H] * h_prev * r * (1.0 - r)
    d_hx = d_zpre @ W_z + d_rpre @ W_r
    dh_prev = dh * z + d_rhx[..., :H] * r + d_hx[..., :H]
    dx_t = d_rhx[..., H:] + d_hx[..., H:]

    G = np.atleast_2d
    return (dx_t, dh_prev,
            G(d_zpre).T @ G(hx), G(d_zpre).sum(axis=0),
            G(d_rpre).T @ G(hx), G(d_rpre).sum(axis=0),
            G(d_cpre).T @ G(rhx), G(d_cpre).sum(axis=0))
