"""Forgets b_r."""

import numpy as np

RIGHT_DIAGNOSES = ("missing_bias", "drop_term")


def reset_gate(x_t, h_prev, W_r, b_r):
    v = np.concatenate([h_prev, x_t], axis=-1)
    r = 0.5 * (1.0 + np.tanh(0.5 * (v @ W_r.T)))
    return r, r * h_prev
