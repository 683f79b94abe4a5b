"""Gate biases added after the sigmoid: sigmoid(W v) + b."""

import numpy as np

HINT = ("Your gates can leave the interval (0, 1), which a share cannot do. Check where the "
        "biases enter: everything that shifts a gate belongs inside the squashing function, "
        "so that the result stays between 0 and 1.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def _step(h, x, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h, x], axis=-1)
    z = _sigmoid(hx @ W_z.T) + b_z
    r = _sigmoid(hx @ W_r.T) + b_r
    h_tilde = np.tanh(np.concatenate([r * h, x], axis=-1) @ W_h.T + b_h)
    return z * h + (1.0 - z) * h_tilde


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    h = h0
    states = []
    for t in range(xs.shape[-2]):
        h = _step(h, xs[..., t, :], W_z, b_z, W_r, b_r, W_h, b_h)
        states.append(h)
    return np.stack(states, axis=-2)
