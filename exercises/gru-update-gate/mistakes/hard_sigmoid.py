"""Piecewise-linear 'hard sigmoid' clip(0.2 a + 0.5, 0, 1) used for the logistic function."""

import numpy as np

HINT = ("Your gate is exactly 0 or 1 for moderate pre-activations and a straight line in "
        "between: that is the 'hard sigmoid', a fast piecewise-linear stand-in some libraries "
        "offer. The gate here is the logistic function 1 / (1 + e^-a), smooth everywhere.")


def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    a = joined @ W_z.T + b_z
    return np.clip(0.2 * a + 0.5, 0.0, 1.0)
