"""Forgets the bias b_r in the gate's affine map."""

import numpy as np

RIGHT_DIAGNOSES = ("missing_bias",)


def _sigmoid(q: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -q))


def reset_gate(x_t: np.ndarray, h_prev: np.ndarray,
               W_r: np.ndarray, b_r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    H = h_prev.shape[-1]
    q = h_prev @ W_r[:, :H].T + x_t @ W_r[:, H:].T
    r_t = _sigmoid(q)
    return r_t, r_t * h_prev
