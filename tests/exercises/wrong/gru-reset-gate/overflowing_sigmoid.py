"""Sigmoid as exp(a) / (1 + exp(a)): inf / inf = NaN once a > 709."""

import numpy as np

RIGHT_DIAGNOSES = ("overflowing_sigmoid",)


def reset_gate(x_t, h_prev, W_r, b_r):
    a = np.concatenate([h_prev, x_t], axis=-1) @ W_r.T + b_r
    r = np.exp(a) / (1.0 + np.exp(a))
    return r, r * h_prev
