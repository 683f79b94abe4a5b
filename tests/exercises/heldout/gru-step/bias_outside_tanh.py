"""Adds the candidate bias after the tanh: tanh(W_h [r * h_prev, x_t]) + b_h."""

import numpy as np

RIGHT_DIAGNOSES = ("term_after_activation",)


def sigmoid(a: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step(x_t: np.ndarray, h_prev: np.ndarray,
             W_z: np.ndarray, b_z: np.ndarray,
             W_r: np.ndarray, b_r: np.ndarray,
             W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = sigmoid(hx @ W_z.T + b_z)
    r = sigmoid(hx @ W_r.T + b_r)
    h_tilde = np.tanh(np.concatenate([r * h_prev, x_t], axis=-1) @ W_h.T) + b_h
    return z * h_prev + (1 - z) * h_tilde
