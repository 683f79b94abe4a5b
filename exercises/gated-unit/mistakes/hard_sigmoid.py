"""Piecewise-linear 'hard sigmoid' clip(0.2 z + 0.5, 0, 1) for the update gate."""

import numpy as np

HINT = ("Your gate is exactly 0 or 1 for moderate pre-activations and a straight line in "
        "between: that is the 'hard sigmoid', a fast piecewise-linear stand-in some libraries "
        "offer. The gate here is the logistic function 1 / (1 + e^-z), smooth everywhere.")


def _sigmoid(z):
    return np.clip(0.2 * z + 0.5, 0.0, 1.0)


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1.0 - u) * a
        states.append(h)
    return np.stack(states, axis=-2)
