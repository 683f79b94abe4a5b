"""Applies the sigmoid to all 4H pre-activations, so the candidate g uses sigmoid, not tanh."""

import numpy as np

RIGHT_DIAGNOSES = ("sigmoid_candidate",)


def lstm_step(x_t: np.ndarray, h_prev: np.ndarray, c_prev: np.ndarray,
              W: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    H = h_prev.shape[-1]
    pre = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    act = np.exp(-np.logaddexp(0.0, -pre))   # one stable sigmoid for every block
    i, f, g, o = (act[..., k * H:(k + 1) * H] for k in range(4))
    c = f * c_prev + i * g
    h = o * np.tanh(c)
    return h, c
