"""Stops at the update gate's output: dz = dh * (h_prev - cand) without the factor z * (1 - z)."""

import numpy as np

RIGHT_DIAGNOSES = ("drop_derivative",)


def sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step_backward(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h, dh):
    H = h_prev.shape[-1]
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = sigmoid(hx @ W_z.T + b_z)
    r = sigmoid(hx @ W_r.T + b_r)
    rh_x = np.concatenate([r * h_prev, x_t], axis=-1)
    cand = np.tanh(rh_x @ W_h.T + b_h)

    dz = dh * (h_prev - cand)
    dcand = dh * (1 - z) * (1 - cand**2)
    drh_x = dcand @ W_h
    dr = drh_x[..., :H] * h_prev * r * (1 - r)
    dhx = dz @ W_z + dr @ W_r
    dh_prev = dh * z + drh_x[..., :H] * r + dhx[..., :H]
    dx_t = drh_x[..., H:] + dhx[..., H:]
    dz2, dr2, dc2 = np.atleast_2d(dz), np.atleast_2d(dr), np.atleast_2d(dcand)
    a, b = np.atleast_2d(hx), np.atleast_2d(rh_x)
    return (dx_t, dh_prev, dz2.T @ a, dz2.sum(0), dr2.T @ a, dr2.sum(0),
            dc2.T @ b, dc2.sum(0))
