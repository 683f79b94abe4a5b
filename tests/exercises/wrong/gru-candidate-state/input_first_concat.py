"""Puts x_t first in the concatenation."""

import numpy as np

RIGHT_DIAGNOSES = ("input_first", "swap_concat")


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    v = np.concatenate([x_t, r_t * h_prev], axis=-1)
    return np.tanh(v @ W_h.T + b_h)
