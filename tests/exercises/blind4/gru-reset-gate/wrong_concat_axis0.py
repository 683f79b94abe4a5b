"""Mistake: np.concatenate without axis=-1 joins along axis 0, which is wrong for a batch."""
import numpy as np


def reset_gate(x_t, h_prev, W_r, b_r):
    joined = np.concatenate([h_prev, x_t])
    q = W_r @ joined + b_r if joined.ndim == 1 else joined @ W_r.T + b_r
    r = np.exp(-np.logaddexp(0.0, -q))
    return r, r * h_prev


RIGHT_DIAGNOSES = ("axis",)
