"""Loops over the first axis, which for a batch (N, T, D) is the sequences."""

import numpy as np

HINT = ("Unbatched you are right, but a batch goes wrong: your loop runs over the first axis, "
        "which for a batch is the sequences, not the time steps. In this exercise time is "
        "the second-to-last axis of x: (N, T, D) for a batch.")


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range(x.shape[0]):
        u = _sigmoid(x[t] @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(x[t] @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1.0 - u) * a
        states.append(h)
    return np.stack(states)
