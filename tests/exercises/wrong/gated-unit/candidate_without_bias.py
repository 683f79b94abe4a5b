"""Forgets the candidate's bias b_a."""

import numpy as np

RIGHT_DIAGNOSES = ("drop_term",)


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = np.array(h0, dtype=float)
    states = []
    for t in range(x.shape[-2]):
        xt = x[..., t, :]
        u = np.exp(-np.logaddexp(0, -(xt @ W_ux.T + h @ W_uh.T + b_u)))
        a = np.tanh(xt @ W_ax.T + h @ W_ah.T)
        h = u * h + (1 - u) * a
        states.append(h)
    return np.stack(states, axis=-2)
