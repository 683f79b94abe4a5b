"""Mistake: concatenates x_t before h_prev, the order of the arguments rather than of W_r's columns."""
import numpy as np


def reset_gate(x_t, h_prev, W_r, b_r):
    q = np.concatenate([x_t, h_prev], axis=-1) @ W_r.T + b_r
    r = np.exp(-np.logaddexp(0.0, -q))
    return r, r * h_prev


RIGHT_DIAGNOSES = ("input_first",)
