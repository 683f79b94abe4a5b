"""Concatenates [x_t, h_prev] although W acts on [h_prev, x_t]."""

import numpy as np

RIGHT_DIAGNOSES = ("swap_concat", "concat_order")


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([x_t, h_prev], axis=-1) @ W.T + b
    s = lambda v: np.exp(-np.logaddexp(0, -v))  # noqa: E731
    i, f, g, o = s(a[..., :H]), s(a[..., H:2 * H]), np.tanh(a[..., 2 * H:3 * H]), s(a[..., 3 * H:])
    c = f * c_prev + i * g
    return o * np.tanh(c), c
