"""The recurrent weights of the two blocks exchanged: the gate reads W_ah, the candidate W_uh."""

import numpy as np

HINT = ("Your gate and candidate each read the other block's recurrent weights. Every block "
        "has its own pair of matrices, one for the input and one for the state: check that "
        "the gate's state term uses the gate's matrix and the candidate's uses the "
        "candidate's.")


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_ah.T + b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_uh.T + b_a)
        h = u * h + (1.0 - u) * a
        states.append(h)
    return np.stack(states, axis=-2)
