"""Leaves the reset gate out: the candidate reads [h_prev, x_t], not [r_t * h_prev, x_t]."""

import numpy as np

RIGHT_DIAGNOSES = ("missing_reset",)


def sigmoid(x):
    return np.exp(-np.logaddexp(0, -x))


def gru_step(x_t: np.ndarray, h_prev: np.ndarray,
             W_z: np.ndarray, b_z: np.ndarray,
             W_r: np.ndarray, b_r: np.ndarray,
             W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    concat = np.concatenate([h_prev, x_t], axis=-1)
    update = sigmoid(concat @ W_z.T + b_z)
    candidate = np.tanh(concat @ W_h.T + b_h)
    return update * h_prev + (1 - update) * candidate
