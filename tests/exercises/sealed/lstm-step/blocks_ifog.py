"""Splits the blocks in the order i, f, o, g instead of i, f, g, o (output gate and candidate)."""

import numpy as np

RIGHT_DIAGNOSES = ("blocks_ifog",)


def sigmoid(v):
    return np.exp(-np.logaddexp(0.0, -v))


def lstm_step(x_t: np.ndarray, h_prev: np.ndarray, c_prev: np.ndarray,
              W: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    hx = np.concatenate([h_prev, x_t], axis=-1)
    a = hx @ W.T + b
    ai, af, ao, ag = np.split(a, 4, axis=-1)
    i, f, o = sigmoid(ai), sigmoid(af), sigmoid(ao)
    g = np.tanh(ag)
    c_next = f * c_prev + i * g
    h_next = o * np.tanh(c_next)
    return h_next, c_next
