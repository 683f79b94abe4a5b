"""Reads the sequence backwards: x_T first."""

import numpy as np

HINT = ("Your states run through the inputs in the wrong order: the first step must read the "
        "first input, and the last step the last one.")


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in reversed(range(x.shape[-2])):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1.0 - u) * a
        states.append(h)
    return np.stack(states, axis=-2)
