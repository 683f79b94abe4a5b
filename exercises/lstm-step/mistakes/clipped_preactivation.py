"""Gate pre-activations clipped to [-15, 15] before the sigmoid, to keep exp from overflowing."""

import numpy as np

HINT = ("Your step is right except where a gate saturates: there the gate stops short of 0 or "
        "1 by more than the tolerance. Clipping the pre-activation (or the gate) to a narrow "
        "range avoids the overflow but changes the value; write a sigmoid that is exact for "
        "every a instead: np.exp(-np.logaddexp(0, -a)), or split on the sign without an "
        "overflowing branch, e = np.exp(-np.abs(a)) and np.where(a >= 0, 1, e) / (1 + e).")


def _sigmoid(a):
    return 1.0 / (1.0 + np.exp(-np.clip(a, -15.0, 15.0)))


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    i = _sigmoid(a[..., 0 * H:1 * H])
    f = _sigmoid(a[..., 1 * H:2 * H])
    g = np.tanh(a[..., 2 * H:3 * H])
    o = _sigmoid(a[..., 3 * H:4 * H])
    c_t = f * c_prev + i * g
    return o * np.tanh(c_t), c_t
