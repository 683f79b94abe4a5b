"""Gate bias added after the sigmoid: sigmoid(W_ux x + W_uh h) + b_u."""

import numpy as np

HINT = ("Your gate can leave the interval (0, 1), which a share cannot do. Check where the "
        "bias enters: everything that shifts the gate belongs inside the squashing function, "
        "so that the result stays between 0 and 1.")


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T) + b_u
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1.0 - u) * a
        states.append(h)
    return np.stack(states, axis=-2)
