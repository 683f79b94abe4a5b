"""Takes the update gate's gradient with (cand - h_prev) instead of (h_prev - cand): the wrong sign."""
import numpy as np


def _sigmoid(a):
    return 0.5 * (1.0 + np.tanh(0.5 * a))


def gru_step_backward(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h, dh):
    H = h_prev.shape[-1]
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    rh = r * h_prev
    rhx = np.concatenate([rh, x_t], axis=-1)
    cand = np.tanh(rhx @ W_h.T + b_h)

    da_z = dh * (cand - h_prev) * z * (1 - z)
    da_h = dh * (1 - z) * (1 - cand**2)
    d_rhx = da_h @ W_h
    d_rh = d_rhx[..., :H]
    da_r = d_rh * h_prev * r * (1 - r)
    d_hx = da_z @ W_z + da_r @ W_r

    dh_prev = dh * z + d_rh * r + d_hx[..., :H]
    dx_t = d_rhx[..., H:] + d_hx[..., H:]

    A_z, A_r, A_h = np.atleast_2d(da_z), np.atleast_2d(da_r), np.atleast_2d(da_h)
    HX, RHX = np.atleast_2d(hx), np.atleast_2d(rhx)
    dW_z = A_z.T @ HX
    dW_r = A_r.T @ HX
    dW_h = A_h.T @ RHX
    db_z = A_z.sum(axis=0)
    db_r = A_r.sum(axis=0)
    db_h = A_h.sum(axis=0)
    return dx_t, dh_prev, dW_z, db_z, dW_r, db_r, dW_h, db_h


RIGHT_DIAGNOSES = ("gate_derivative_sign",)
