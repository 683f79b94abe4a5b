"""Mistake: z weighs the candidate and 1 - z the old state (z close to 1 replaces the state)."""
import numpy as np


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(joined @ W_z.T + b_z)
    r = _sigmoid(joined @ W_r.T + b_r)
    cand = np.tanh(np.concatenate([r * h_prev, x_t], axis=-1) @ W_h.T + b_h)
    return (1 - z) * h_prev + z * cand


RIGHT_DIAGNOSES = ("swapped_update_gate",)
