import numpy as np

HINT = ("Row k of a recurrent matrix holds the weights that unit k reads from every unit of "
        "h_{t-1}. With a batch of row vectors h, is that h @ W or h @ W.T? A square matrix "
        "will not warn you with a shape error.")


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh + b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah + b_a)
        h = u * h + (1.0 - u) * a
        states.append(h)
    return np.stack(states, axis=-2)
