"""Treats the reset gate as a constant: no gradient flows back through r (dW_r, db_r are zero)."""

import numpy as np

RIGHT_DIAGNOSES = ("reset_gate_held_constant",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step_backward(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h, dh):
    H = h_prev.shape[-1]
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    rhx = np.concatenate([r * h_prev, x_t], axis=-1)
    h_tilde = np.tanh(rhx @ W_h.T + b_h)

    dz_pre = dh * (h_prev - h_tilde) * z * (1.0 - z)
    dh_pre = dh * (1.0 - z) * (1.0 - h_tilde**2)
    d_rhx = dh_pre @ W_h
    d_hx = dz_pre @ W_z
    dh_prev = dh * z + d_rhx[..., :H] * r + d_hx[..., :H]
    dx_t = d_rhx[..., H:] + d_hx[..., H:]

    dz2, dh2 = np.atleast_2d(dz_pre), np.atleast_2d(dh_pre)
    return (dx_t, dh_prev,
            dz2.T @ np.atleast_2d(hx), dz2.sum(axis=0),
            np.zeros_like(W_r), np.zeros_like(b_r),
            dh2.T @ np.atleast_2d(rhx), dh2.sum(axis=0))
