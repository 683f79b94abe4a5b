"""Input weights reshaped to (D, H) instead of transposed."""

import numpy as np

HINT = ("Your shapes fit but the values do not. Reshaping a (H, D) matrix to (D, H) keeps the "
        "entries in reading order, so they land in other rows and columns than a transpose "
        "would put them: row k of each weight matrix must still be the weights of unit k.")


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.reshape(W_ux.shape[::-1]) + h @ W_uh.T + b_u)
        a = np.tanh(x_t @ W_ax.reshape(W_ax.shape[::-1]) + h @ W_ah.T + b_a)
        h = u * h + (1.0 - u) * a
        states.append(h)
    return np.stack(states, axis=-2)
