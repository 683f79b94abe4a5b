"""np.concatenate without axis=-1: joins a batch along the batch axis."""

import numpy as np

RIGHT_DIAGNOSES = ("axis",)


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    return np.tanh(np.concatenate([r_t * h_prev, x_t]) @ W_h.T + b_h)
