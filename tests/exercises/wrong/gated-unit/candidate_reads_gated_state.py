"""Updates h in two passes, so the candidate reads u * h_{t-1}."""

import numpy as np

RIGHT_DIAGNOSES = ("candidate_reads_gated_state",)


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        h = u * h
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = h + (1.0 - u) * a
        states.append(h)
    return np.stack(states, axis=-2)
