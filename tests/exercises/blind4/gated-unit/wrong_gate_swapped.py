"""Mistake: u multiplies the candidate and 1 - u the old state (the mix the wrong way round)."""
import numpy as np


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range(x.shape[-2]):
        xt = x[..., t, :]
        u = _sigmoid(xt @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(xt @ W_ax.T + h @ W_ah.T + b_a)
        h = u * a + (1 - u) * h
        states.append(h)
    return np.stack(states, axis=-2)


RIGHT_DIAGNOSES = ("swapped_gate",)
