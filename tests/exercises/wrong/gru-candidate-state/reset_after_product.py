"""Applies the reset gate to the recurrent product U h instead of to h before it."""

import numpy as np

RIGHT_DIAGNOSES = ("reset_after_affine",)


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    H = h_prev.shape[-1]
    rec = h_prev @ W_h[:, :H].T
    inp = x_t @ W_h[:, H:].T
    return np.tanh(r_t * rec + inp + b_h)
