"""Sigmoid as exp(a) / (1 + exp(a)): inf / inf = NaN once a > 709."""

import numpy as np

RIGHT_DIAGNOSES = ("overflowing_sigmoid",)


def _sigmoid(a):
    return np.exp(a) / (1.0 + np.exp(a))


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    h_tilde = np.tanh(np.concatenate([r * h_prev, x_t], axis=-1) @ W_h.T + b_h)
    return z * h_prev + (1.0 - z) * h_tilde
