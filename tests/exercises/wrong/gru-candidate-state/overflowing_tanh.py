"""tanh written as (e^a - e^-a) / (e^a + e^-a): NaN once |a| > 709."""

import numpy as np

RIGHT_DIAGNOSES = ("tanh_from_exponentials",)


def _joined(first, x_t):
    return np.concatenate([first, x_t], axis=-1)


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    a = _joined(r_t * h_prev, x_t) @ W_h.T + b_h
    return (np.exp(a) - np.exp(-a)) / (np.exp(a) + np.exp(-a))
