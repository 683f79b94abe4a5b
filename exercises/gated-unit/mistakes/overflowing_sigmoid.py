import numpy as np

HINT = ("Your states are right for moderate inputs but become NaN where a gate's "
        "pre-activation is large. In float64, exp overflows to inf above about 709, and "
        "inf / inf is NaN. Write the sigmoid so that exp never sees a large positive argument.")


def _sigmoid(z):
    return np.exp(z) / (1.0 + np.exp(z))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1.0 - u) * a
        states.append(h)
    return np.stack(states, axis=-2)
