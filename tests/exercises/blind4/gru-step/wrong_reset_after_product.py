"""Mistake: resets after the hidden product, r * (W_hh h), PyTorch-style, instead of before it."""
import numpy as np


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(joined @ W_z.T + b_z)
    r = _sigmoid(joined @ W_r.T + b_r)
    H = h_prev.shape[-1]
    cand = np.tanh(r * (h_prev @ W_h[:, :H].T) + x_t @ W_h[:, H:].T + b_h)
    return z * h_prev + (1 - z) * cand


RIGHT_DIAGNOSES = ("reset_after_affine",)
