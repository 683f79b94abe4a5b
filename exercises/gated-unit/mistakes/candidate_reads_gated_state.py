"""The candidate reads the gated state u * h_{t-1} (the gate used like a GRU reset gate, or
h scaled in place before the candidate is computed)."""

import numpy as np

HINT = ("Your candidate reads the previous state already multiplied by the gate. The gate "
        "only enters the final mix; the candidate's recurrent term reads h_{t-1} as it was. "
        "Check the state your candidate line uses (a variable overwritten on the way?).")


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        kept = u * h
        a = np.tanh(x_t @ W_ax.T + kept @ W_ah.T + b_a)
        h = kept + (1.0 - u) * a
        states.append(h)
    return np.stack(states, axis=-2)
