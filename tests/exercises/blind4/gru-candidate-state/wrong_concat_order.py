"""Mistake: concatenates the input before the reset state ([x_t, r * h] instead of [r * h, x_t])."""
import numpy as np


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    joined = np.concatenate([x_t, r_t * h_prev], axis=-1)
    return np.tanh(joined @ W_h.T + b_h)


RIGHT_DIAGNOSES = ("input_first",)
