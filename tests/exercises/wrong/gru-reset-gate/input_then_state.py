"""Concatenates [x_t, h_prev] although W_r's first columns belong to h_prev."""

import numpy as np

RIGHT_DIAGNOSES = ("input_first", "swap_concat")


def reset_gate(x_t, h_prev, W_r, b_r):
    v = np.concatenate([x_t, h_prev], axis=-1)
    r = np.exp(-np.logaddexp(0.0, -(v @ W_r.T + b_r)))
    return r, r * h_prev
