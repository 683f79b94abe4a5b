"""Puts the input first in every concatenation, [x_t, h] instead of [h, x_t]."""

import numpy as np

RIGHT_DIAGNOSES = ("concat_order",)


def _sig(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step(x_t: np.ndarray, h_prev: np.ndarray,
             W_z: np.ndarray, b_z: np.ndarray,
             W_r: np.ndarray, b_r: np.ndarray,
             W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    xh = np.concatenate([x_t, h_prev], axis=-1)
    z = _sig(xh @ W_z.T + b_z)
    r = _sig(xh @ W_r.T + b_r)
    cand = np.tanh(np.concatenate([x_t, r * h_prev], axis=-1) @ W_h.T + b_h)
    return z * h_prev + (1.0 - z) * cand
