"""Only the input drives the gate: the recurrent half of W_z is never used."""

import numpy as np

RIGHT_DIAGNOSES = ("state_ignored",)


def update_gate(x_t, h_prev, W_z, b_z):
    H = h_prev.shape[-1]
    a = x_t @ W_z[:, H:].T + b_z
    return 1.0 / (1.0 + np.exp(-np.clip(a, -500, 500)))
