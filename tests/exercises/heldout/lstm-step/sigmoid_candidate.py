"""Applies the sigmoid to all four blocks, including the candidate g_t that needs tanh."""

import numpy as np

RIGHT_DIAGNOSES = ("sigmoid_candidate",)


def _sigmoid(a: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -a))


def lstm_step(x_t: np.ndarray, h_prev: np.ndarray, c_prev: np.ndarray,
              W: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    H = h_prev.shape[-1]
    acts = _sigmoid(np.concatenate([h_prev, x_t], axis=-1) @ W.T + b)
    i, f, g, o = (acts[..., k * H:(k + 1) * H] for k in range(4))
    c_t = f * c_prev + i * g
    h_t = o * np.tanh(c_t)
    return h_t, c_t
