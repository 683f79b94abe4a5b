"""Mistake: concatenates [x_t, h_prev] in the order of the arguments instead of [h_prev, x_t]."""
import numpy as np


def update_gate(x_t, h_prev, W_z, b_z):
    q = np.concatenate([x_t, h_prev], axis=-1) @ W_z.T + b_z
    return np.exp(-np.logaddexp(0.0, -q))


RIGHT_DIAGNOSES = ("input_first",)
