"""Mistake: uses a sigmoid as the candidate's activation instead of tanh (values only in (0, 1))."""
import numpy as np


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    q = np.concatenate([r_t * h_prev, x_t], axis=-1) @ W_h.T + b_h
    return np.exp(-np.logaddexp(0.0, -q))


RIGHT_DIAGNOSES = ("sigmoid_activation",)
