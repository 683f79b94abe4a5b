"""Returns only the gate r_t, not the tuple (r_t, r_t * h_prev)."""

import numpy as np

RIGHT_DIAGNOSES = ("gate_only",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def reset_gate(x_t, h_prev, W_r, b_r):
    return _sigmoid(np.concatenate([h_prev, x_t], axis=-1) @ W_r.T + b_r)
