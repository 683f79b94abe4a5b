"""Single precision: computes in float32 and converts back, so only ~7 digits are right."""

import numpy as np

HINT = ("Your values agree with the expected ones to about 7 significant digits, then drift. "
        "That is the precision of float32: somewhere the arrays were converted to single "
        "precision (np.float32, astype, dtype=...). Keep every step in float64.")


def reset_gate(x_t, h_prev, W_r, b_r):
    joined = np.concatenate([h_prev, x_t], axis=-1).astype(np.float32)
    a = joined @ W_r.astype(np.float32).T + b_r.astype(np.float32)
    r = np.float32(1.0) / (np.float32(1.0) + np.exp(-np.clip(a, -80, 80)))
    return r.astype(np.float64), (r * h_prev.astype(np.float32)).astype(np.float64)
