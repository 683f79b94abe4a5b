"""Leaves out the reset gate: the candidate reads the raw h_prev."""

import numpy as np

RIGHT_DIAGNOSES = ("missing_reset",)


def sigmoid(a: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step(x_t: np.ndarray, h_prev: np.ndarray,
             W_z: np.ndarray, b_z: np.ndarray,
             W_r: np.ndarray, b_r: np.ndarray,
             W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = sigmoid(hx @ W_z.T + b_z)
    h_tilde = np.tanh(hx @ W_h.T + b_h)
    return z * h_prev + (1 - z) * h_tilde
