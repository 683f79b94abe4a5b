"""W_ux and W_ax exchanged: the gate reads the candidate's input weights."""

import numpy as np

RIGHT_DIAGNOSES = ("exchange_parameters", "input_weights_swapped")


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ax.T + h @ W_uh.T + b_u)
        a = np.tanh(x_t @ W_ux.T + h @ W_ah.T + b_a)
        h = u * h + (1.0 - u) * a
        states.append(h)
    return np.stack(states, axis=-2)
