"""Sigmoid written as exp(q) / (1 + exp(q)): NaN (inf / inf) for large positive pre-activations."""

import numpy as np

RIGHT_DIAGNOSES = ("overflowing_sigmoid",)


def sigmoid(q):
    e = np.exp(q)
    return e / (1.0 + e)


def update_gate(x_t: np.ndarray, h_prev: np.ndarray,
                W_z: np.ndarray, b_z: np.ndarray) -> np.ndarray:
    hx = np.concatenate((h_prev, x_t), axis=-1)
    return sigmoid(hx @ W_z.T + b_z)
