"""All three biases left out of the affine maps."""

import numpy as np

HINT = ("Your states are off even where the inputs are small. Each of the three blocks is an "
        "affine map with its own bias; is every one of the function's arguments used?")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def _step(h, x, W_z, W_r, W_h):
    hx = np.concatenate([h, x], axis=-1)
    z = _sigmoid(hx @ W_z.T)
    r = _sigmoid(hx @ W_r.T)
    h_tilde = np.tanh(np.concatenate([r * h, x], axis=-1) @ W_h.T)
    return z * h + (1.0 - z) * h_tilde


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    h = h0
    states = []
    for t in range(xs.shape[-2]):
        h = _step(h, xs[..., t, :], W_z, W_r, W_h)
        states.append(h)
    return np.stack(states, axis=-2)
