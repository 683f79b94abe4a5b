"""Gate pre-activation clipped to [-15, 15] before the sigmoid, to keep exp from overflowing."""

import numpy as np

HINT = ("Your states are right except where the gate saturates: there it stops short of 0 or 1 "
        "by more than the tolerance. Clipping the pre-activation (or the gate) to a narrow "
        "range avoids the overflow but changes the value; write a sigmoid that is exact for "
        "every z instead: np.exp(-np.logaddexp(0, -z)), or split on the sign without an "
        "overflowing branch, e = np.exp(-np.abs(z)) and np.where(z >= 0, 1, e) / (1 + e).")


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-np.clip(z, -15.0, 15.0)))


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
