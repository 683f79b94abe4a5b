"""Off by one: the loop starts at the second input, then the final state is appended once
more after the loop, which happens to give T rows."""

import numpy as np

HINT = ("Your states are computed from the second input on: x_1 (index 0) never enters. "
        "The first state h_1 comes from h_0 and x_1, and a sequence of T inputs gives T "
        "states, one per input. Check where your loop starts.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def _step(h, x, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h, x], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    h_tilde = np.tanh(np.concatenate([r * h, x], axis=-1) @ W_h.T + b_h)
    return z * h + (1.0 - z) * h_tilde


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    h = h0
    states = []
    for t in range(1, xs.shape[-2]):
        h = _step(h, xs[..., t, :], W_z, b_z, W_r, b_r, W_h, b_h)
        states.append(h)
    states.append(h)  # "and the final state"
    return np.stack(states, axis=-2)
