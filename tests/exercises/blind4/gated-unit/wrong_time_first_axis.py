"""Mistake: loops over the first axis as time (x[t]), which for a batch (N, T, D) walks the batch instead."""
import numpy as np


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range(x.shape[0]):
        xt = x[t]
        u = _sigmoid(xt @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(xt @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1 - u) * a
        states.append(h)
    return np.stack(states, axis=0)


RIGHT_DIAGNOSES = ("time_axis_first",)
