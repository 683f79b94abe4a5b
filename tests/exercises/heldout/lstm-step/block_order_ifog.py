"""Reads the row blocks in the order i, f, o, g instead of i, f, g, o."""

import numpy as np

RIGHT_DIAGNOSES = ("blocks_ifog",)


def _sigmoid(a: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -a))


def lstm_step(x_t: np.ndarray, h_prev: np.ndarray, c_prev: np.ndarray,
              W: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    q = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    i, f, o, g = np.split(q, 4, axis=-1)
    i, f, o, g = _sigmoid(i), _sigmoid(f), _sigmoid(o), np.tanh(g)
    c_t = f * c_prev + i * g
    h_t = o * np.tanh(c_t)
    return h_t, c_t
