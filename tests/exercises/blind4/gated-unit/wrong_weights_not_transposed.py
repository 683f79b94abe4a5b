"""Mistake: multiplies the row vectors by the weights without transposing them (x @ W_ux instead of x @ W_ux.T)."""
import numpy as np


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range(x.shape[-2]):
        xt = x[..., t, :]
        u = _sigmoid(xt @ W_ux + h @ W_uh + b_u)
        a = np.tanh(xt @ W_ax + h @ W_ah + b_a)
        h = u * h + (1 - u) * a
        states.append(h)
    return np.stack(states, axis=-2)
