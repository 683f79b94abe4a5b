"""Returns (r_t * h_prev, r_t): the two outputs in the wrong order."""

import numpy as np

RIGHT_DIAGNOSES = ("swap_tuple", "outputs_swapped")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def reset_gate(x_t, h_prev, W_r, b_r):
    r = _sigmoid(np.concatenate([h_prev, x_t], axis=-1) @ W_r.T + b_r)
    return r * h_prev, r
