"""Reset scales the whole pre-activation, input and bias included."""

import numpy as np

RIGHT_DIAGNOSES = ("reset_on_preactivation",)


def _joined(first, x_t):
    return np.concatenate([first, x_t], axis=-1)


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    return np.tanh(r_t * (_joined(h_prev, x_t) @ W_h.T + b_h))
