"""Starts from zeros and ignores h0."""

import numpy as np

HINT = ("Your states are right only when the initial state is zero. The recursion starts "
        "from the given h0; is every argument of the function used?")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def _step(h, x, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h, x], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    h_tilde = np.tanh(np.concatenate([r * h, x], axis=-1) @ W_h.T + b_h)
    return z * h + (1.0 - z) * h_tilde


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    h = np.zeros_like(h0)
    states = []
    for t in range(xs.shape[-2]):
        h = _step(h, xs[..., t, :], W_z, b_z, W_r, b_r, W_h, b_h)
        states.append(h)
    return np.stack(states, axis=-2)
