"""Correct: tanh(a) = 2 sigmoid(2a) - 1 with an overflow-free sigmoid."""

import numpy as np


def _joined(first, x_t):
    return np.concatenate([first, x_t], axis=-1)


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    a = _joined(r_t * h_prev, x_t) @ W_h.T + b_h
    return 2.0 * np.exp(-np.logaddexp(0.0, -2.0 * a)) - 1.0
