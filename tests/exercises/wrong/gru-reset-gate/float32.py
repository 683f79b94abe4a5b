"""Pre-activation in float32, cast back to float64: only ~7 digits right."""

import numpy as np

RIGHT_DIAGNOSES = ("float32_arithmetic",)


def reset_gate(x_t, h_prev, W_r, b_r):
    joined = np.concatenate([h_prev, x_t], axis=-1).astype(np.float32)
    a = joined @ W_r.T.astype(np.float32) + b_r.astype(np.float32)
    r = (1.0 / (1.0 + np.exp(-np.clip(a, -80.0, 80.0)))).astype(np.float64)
    return r, r * h_prev
