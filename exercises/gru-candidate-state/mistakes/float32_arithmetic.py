"""Single precision: computes in float32 and converts back, so only ~7 digits are right."""

import numpy as np

HINT = ("Your values agree with the expected ones to about 7 significant digits, then drift. "
        "That is the precision of float32: somewhere the arrays were converted to single "
        "precision (np.float32, astype, dtype=...). Keep every step in float64.")


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    joined = np.concatenate([r_t * h_prev, x_t], axis=-1).astype(np.float32)
    a = joined @ W_h.astype(np.float32).T + b_h.astype(np.float32)
    return np.tanh(a).astype(np.float64)
