"""r_t and r_t * h_prev returned as one stacked array instead of a tuple of two arrays."""

import numpy as np

HINT = ("Your values are right but they come back as one array with an extra leading axis of "
        "size 2. Return the two arrays themselves, as a tuple (r_t, r_t * h_prev), without "
        "stacking them.")


def reset_gate(x_t, h_prev, W_r, b_r):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    r = np.exp(-np.logaddexp(0.0, -(joined @ W_r.T + b_r)))
    return np.array([r, r * h_prev])
