"""Returns the pre-activation: the tanh is forgotten."""

import numpy as np

RIGHT_DIAGNOSES = ("drop_activation",)


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    v = np.concatenate([r_t * h_prev, x_t], axis=-1)
    return v @ W_h.T + b_h
