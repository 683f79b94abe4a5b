"""Mistake: returns (reset_state, r_t), the tuple in the wrong order."""
import numpy as np


def reset_gate(x_t, h_prev, W_r, b_r):
    q = np.concatenate([h_prev, x_t], axis=-1) @ W_r.T + b_r
    r = np.exp(-np.logaddexp(0.0, -q))
    return r * h_prev, r


RIGHT_DIAGNOSES = ("outputs_swapped",)
