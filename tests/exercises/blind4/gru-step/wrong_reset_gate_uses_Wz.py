"""Mistake: copy-paste slip, the reset gate is computed with W_z and b_z instead of W_r and b_r."""
import numpy as np


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(joined @ W_z.T + b_z)
    r = _sigmoid(joined @ W_z.T + b_z)
    cand = np.tanh(np.concatenate([r * h_prev, x_t], axis=-1) @ W_h.T + b_h)
    return z * h_prev + (1 - z) * cand


RIGHT_DIAGNOSES = ("gate_for_gate",)
