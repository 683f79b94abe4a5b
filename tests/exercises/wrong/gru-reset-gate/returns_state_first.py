"""Returns the pair in the order (r_t * h_prev, r_t)."""

import numpy as np

RIGHT_DIAGNOSES = ("outputs_swapped", "swap_tuple")


def reset_gate(x_t, h_prev, W_r, b_r):
    hx = np.concatenate([h_prev, x_t], axis=-1)
    r = np.exp(-np.logaddexp(0.0, -(hx @ W_r.T + b_r)))
    return r * h_prev, r
