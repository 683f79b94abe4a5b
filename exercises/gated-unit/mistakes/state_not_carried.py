import numpy as np

HINT = ("Your first state is right but later ones drift. At step t, which state feeds the "
        "gate, the candidate and the mix: the one given at the start, or the one you just "
        "computed at step t - 1?")


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    states = []
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h0 @ W_uh.T + b_u)
        a = np.tanh(x_t @ W_ax.T + h0 @ W_ah.T + b_a)
        states.append(u * h0 + (1.0 - u) * a)
    return np.stack(states, axis=-2)
