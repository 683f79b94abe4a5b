import numpy as np

HINT = ("Your gate can be negative and your candidate never is. Each block has its own "
        "squashing function: which one gives a share between 0 and 1, and which one new "
        "content that can push the state either way?")


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = np.tanh(x_t @ W_ux.T + h @ W_uh.T + b_u)
        a = _sigmoid(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1.0 - u) * a
        states.append(h)
    return np.stack(states, axis=-2)
