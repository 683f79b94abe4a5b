"""Inverted reset: the candidate sees (1 - r_t) * h_prev."""

import numpy as np

RIGHT_DIAGNOSES = ("inverted_reset",)


def _joined(first, x_t):
    return np.concatenate([first, x_t], axis=-1)


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    return np.tanh(_joined((1.0 - r_t) * h_prev, x_t) @ W_h.T + b_h)
