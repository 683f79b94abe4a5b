"""Pre-activation in float32, cast back to float64: only ~7 digits right."""

import numpy as np

RIGHT_DIAGNOSES = ("float32_arithmetic",)


def _joined(first, x_t):
    return np.concatenate([first, x_t], axis=-1)


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    a = _joined(r_t * h_prev, x_t).astype(np.float32) @ W_h.T.astype(np.float32)
    return np.tanh(a + b_h.astype(np.float32)).astype(np.float64)
