"""Both biases left out of the affine maps."""

import numpy as np

HINT = ("Your states are off even where the inputs are small. The gate and the candidate are "
        "each an affine map with its own bias; is every one of the function's arguments "
        "used?")


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T)
        h = u * h + (1.0 - u) * a
        states.append(h)
    return np.stack(states, axis=-2)
