"""Keeps (1 - u) of the old state and u of the candidate."""

import numpy as np

RIGHT_DIAGNOSES = ("swapped_gate", "complement")


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = np.array(h0, dtype=float)
    states = []
    for t in range(x.shape[-2]):
        xt = x[..., t, :]
        u = 1 / (1 + np.exp(-np.clip(xt @ W_ux.T + h @ W_uh.T + b_u, -700, 700)))
        a = np.tanh(xt @ W_ax.T + h @ W_ah.T + b_a)
        h = (1 - u) * h + u * a
        states.append(h)
    return np.stack(states, axis=-2)
