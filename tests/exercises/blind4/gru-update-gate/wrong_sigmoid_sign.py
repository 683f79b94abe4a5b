"""Mistake: sign slip in the sigmoid, 1 / (1 + exp(q)), which is sigma(-q)."""
import numpy as np


def update_gate(x_t, h_prev, W_z, b_z):
    q = np.concatenate([h_prev, x_t], axis=-1) @ W_z.T + b_z
    return np.exp(-np.logaddexp(0.0, q))


RIGHT_DIAGNOSES = ("one_minus_z",)
