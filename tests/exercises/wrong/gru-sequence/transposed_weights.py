"""Transposed products W @ v: right for one sequence, breaks on a batch."""

import numpy as np

RIGHT_DIAGNOSES = ("transpose",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def _step(h, x, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h, x], axis=-1)
    z = _sigmoid(W_z @ hx + b_z)
    r = _sigmoid(W_r @ hx + b_r)
    h_tilde = np.tanh(W_h @ np.concatenate([r * h, x], axis=-1) + b_h)
    return z * h + (1.0 - z) * h_tilde


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    params = (W_z, b_z, W_r, b_r, W_h, b_h)
    h = h0
    states = []
    for t in range(xs.shape[-2]):
        h = _step(h, xs[..., t, :], *params)
        states.append(h)
    return np.stack(states, axis=-2)
