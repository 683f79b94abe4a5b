"""Transposed product W_h @ v: right for one vector, breaks on a batch of rows."""

import numpy as np

RIGHT_DIAGNOSES = ("transpose",)


def _joined(first, x_t):
    return np.concatenate([first, x_t], axis=-1)


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    return np.tanh(W_h @ _joined(r_t * h_prev, x_t) + b_h)
