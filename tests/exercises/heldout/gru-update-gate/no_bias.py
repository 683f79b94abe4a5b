"""Leaves out the bias b_z: computes sigmoid(W_z [h_prev, x_t])."""

import numpy as np

RIGHT_DIAGNOSES = ("missing_bias",)


def update_gate(x_t: np.ndarray, h_prev: np.ndarray,
                W_z: np.ndarray, b_z: np.ndarray) -> np.ndarray:
    hx = np.concatenate((h_prev, x_t), axis=-1).astype(np.float64)
    return np.exp(-np.logaddexp(0.0, -(hx @ W_z.T)))
