"""Mistake: applies the reset gate after the product with the hidden columns, r * (W_hh h), not before."""
import numpy as np


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    H = h_prev.shape[-1]
    return np.tanh(r_t * (h_prev @ W_h[:, :H].T) + x_t @ W_h[:, H:].T + b_h)


RIGHT_DIAGNOSES = ("reset_after_affine",)
