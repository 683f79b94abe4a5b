"""The candidate's concatenation puts x_t before r * h_prev."""

import numpy as np

RIGHT_DIAGNOSES = ("swap_concat",)


def sig(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = sig(hx @ W_z.T + b_z)
    r = sig(hx @ W_r.T + b_r)
    c = np.tanh(np.concatenate([x_t, r * h_prev], axis=-1) @ W_h.T + b_h)
    return z * h_prev + (1 - z) * c
