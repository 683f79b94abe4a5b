"""Sigmoid of a pre-activation clipped to [-15, 15]: saturated gates off by ~3e-7."""

import numpy as np

RIGHT_DIAGNOSES = ("clipped_preactivation",)


def update_gate(x_t, h_prev, W_z, b_z):
    a = np.concatenate([h_prev, x_t], axis=-1) @ W_z.T + b_z
    return 1.0 / (1.0 + np.exp(-np.clip(a, -15.0, 15.0)))
