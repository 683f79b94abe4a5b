"""Adds the bias after the sigmoid instead of inside it."""

import numpy as np

RIGHT_DIAGNOSES = ("bias_outside_sigmoid",)


def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    return np.exp(-np.logaddexp(0.0, -(joined @ W_z.T))) + b_z
