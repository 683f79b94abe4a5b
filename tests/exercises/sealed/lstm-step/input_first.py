"""Concatenates [x_t, h_prev], following the argument order, instead of [h_prev, x_t]."""

import numpy as np

RIGHT_DIAGNOSES = ("concat_order",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def lstm_step(x_t: np.ndarray, h_prev: np.ndarray, c_prev: np.ndarray,
              W: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    H = h_prev.shape[-1]
    q = np.concatenate([x_t, h_prev], axis=-1) @ W.T + b
    i = _sigmoid(q[..., :H])
    f = _sigmoid(q[..., H:2 * H])
    g = np.tanh(q[..., 2 * H:3 * H])
    o = _sigmoid(q[..., 3 * H:])
    c_t = f * c_prev + i * g
    return o * np.tanh(c_t), c_t
