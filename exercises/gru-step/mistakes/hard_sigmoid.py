"""Piecewise-linear 'hard sigmoid' clip(0.2 a + 0.5, 0, 1) for both gates."""

import numpy as np

HINT = ("Your gates are exactly 0 or 1 for moderate pre-activations and a straight line in "
        "between: that is the 'hard sigmoid', a fast piecewise-linear stand-in some libraries "
        "offer. The gates here use the logistic function 1 / (1 + e^-a), smooth everywhere.")


def _sigmoid(a):
    return np.clip(0.2 * a + 0.5, 0.0, 1.0)


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    h_tilde = np.tanh(np.concatenate([r * h_prev, x_t], axis=-1) @ W_h.T + b_h)
    return z * h_prev + (1.0 - z) * h_tilde
