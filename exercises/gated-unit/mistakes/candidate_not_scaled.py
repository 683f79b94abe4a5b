import numpy as np

HINT = ("Your states can grow beyond (-1, 1). The new state is a blend of the old state and "
        "the candidate: the two weights of that blend should add up to one in every unit. "
        "Does the candidate get its weight?")


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + a
        states.append(h)
    return np.stack(states, axis=-2)
