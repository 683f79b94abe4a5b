"""Slices the four blocks along the first axis (q[0:H], ...): a batch is cut by rows."""

import numpy as np

RIGHT_DIAGNOSES = ("blocks_sliced_on_first_axis",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def lstm_step(x_t: np.ndarray, h_prev: np.ndarray, c_prev: np.ndarray,
              W: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    H = h_prev.shape[-1]
    q = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    i = _sigmoid(q[0:H])
    f = _sigmoid(q[H:2 * H])
    g = np.tanh(q[2 * H:3 * H])
    o = _sigmoid(q[3 * H:4 * H])
    c_t = f * c_prev + i * g
    h_t = o * np.tanh(c_t)
    return h_t, c_t
