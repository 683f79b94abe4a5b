"""Sigmoid instead of tanh for the candidate: it can never push h down."""

import numpy as np

HINT = ("Your candidate can only pull the state upwards: its values are all positive. The "
        "gate is a share in (0, 1); the candidate is new content for the state and must be "
        "able to take either sign. Which activation gives (-1, 1)?")


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        a = _sigmoid(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1.0 - u) * a
        states.append(h)
    return np.stack(states, axis=-2)
