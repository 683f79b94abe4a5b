"""Loops over the first axis, which for a batch (N, T, D) is the sequences."""

import numpy as np

HINT = ("Unbatched you are right, but a batch goes wrong: your loop runs over the first axis, "
        "which for a batch is the sequences, not the time steps. In this exercise time is "
        "the second-to-last axis of xs: (N, T, D) for a batch.")


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
    for t in range(xs.shape[0]):  # time read as the first axis: (T, N, D)
        h = _step(h, xs[t], W_z, b_z, W_r, b_r, W_h, b_h)
        states.append(h)
    return np.stack(states, axis=-2)
