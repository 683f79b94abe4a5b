"""Concatenates the input before the previous state, [x_t, h_prev], instead of [h_prev, x_t]."""

import numpy as np

RIGHT_DIAGNOSES = ("input_first",)


def sigmoid(a: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -a))


def update_gate(x_t: np.ndarray, h_prev: np.ndarray,
                W_z: np.ndarray, b_z: np.ndarray) -> np.ndarray:
    joined = np.concatenate([x_t, h_prev], axis=-1)
    return sigmoid(joined @ W_z.T + b_z)
