"""Single precision: computes in float32 and converts back, so only ~7 digits are right."""

import numpy as np

HINT = ("Your values agree with the expected ones to about 7 significant digits, then drift. "
        "That is the precision of float32: somewhere the arrays were converted to single "
        "precision (np.float32, astype, dtype=...). Keep every step in float64.")


def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([h_prev, x_t], axis=-1).astype(np.float32)
    a = joined @ W_z.astype(np.float32).T + b_z.astype(np.float32)
    z = np.float32(1.0) / (np.float32(1.0) + np.exp(-np.clip(a, -80, 80)))
    return z.astype(np.float64)
