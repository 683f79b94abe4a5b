import numpy as np

HINT = ("Your states look shifted by one step in time: your first row is the initial state. "
        "Row t of the output is the state computed after reading x_t; h0 is an input, not an "
        "output.")


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range(x.shape[-2]):
        states.append(h)  # stored before the update: h_0 .. h_{T-1}
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1.0 - u) * a
    return np.stack(states, axis=-2)
