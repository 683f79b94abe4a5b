"""Update-gate bias subtracted instead of added."""

import numpy as np

HINT = ("Your gate is shifted the wrong way in every unit: a positive update-gate bias "
        "should push it towards keeping the old state and a negative one towards the "
        "candidate, and yours does the opposite (with the lesson's bias of +1 and no other "
        "input, the gate is sigma(-1) = 0.27 instead of sigma(1) = 0.73). An affine map adds "
        "its bias; check the sign with which b_u enters.")


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h = h0
    states = []
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T - b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1.0 - u) * a
        states.append(h)
    return np.stack(states, axis=-2)
