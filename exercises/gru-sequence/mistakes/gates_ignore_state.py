"""Both gates read the input only: the recurrent halves of W_z and W_r are never used."""

import numpy as np

HINT = ("Your gates do not react to the previous hidden state. Each gate reads the "
        "concatenation of the previous state and the input, so every column of its weight "
        "matrix is used: the first H on the state, the last D on the input.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def _step(h, x, W_z, b_z, W_r, b_r, W_h, b_h):
    H = h.shape[-1]
    z = _sigmoid(x @ W_z[:, H:].T + b_z)
    r = _sigmoid(x @ W_r[:, H:].T + b_r)
    h_tilde = np.tanh(np.concatenate([r * h, x], axis=-1) @ W_h.T + b_h)
    return z * h + (1.0 - z) * h_tilde


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    h = h0
    states = []
    for t in range(xs.shape[-2]):
        h = _step(h, xs[..., t, :], W_z, b_z, W_r, b_r, W_h, b_h)
        states.append(h)
    return np.stack(states, axis=-2)
