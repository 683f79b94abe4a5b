"""Correct: split weights, naive but finite sigmoid 1 / (1 + exp(-a)), mix as (1 - z) c + z h."""

import numpy as np


def _sigmoid(a):
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-a))


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    H = h_prev.shape[-1]
    z = _sigmoid(h_prev @ W_z[:, :H].T + x_t @ W_z[:, H:].T + b_z)
    r = _sigmoid(h_prev @ W_r[:, :H].T + x_t @ W_r[:, H:].T + b_r)
    h_tilde = np.tanh((r * h_prev) @ W_h[:, :H].T + x_t @ W_h[:, H:].T + b_h)
    return (1.0 - z) * h_tilde + z * h_prev
