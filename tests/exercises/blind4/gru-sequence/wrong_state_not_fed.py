"""Mistake: every step starts from h0 instead of the previous step's state."""
import numpy as np


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def _step(x_t, h, W_z, b_z, W_r, b_r, W_h, b_h):
    joined = np.concatenate([h, x_t], axis=-1)
    z = _sigmoid(joined @ W_z.T + b_z)
    r = _sigmoid(joined @ W_r.T + b_r)
    cand = np.tanh(np.concatenate([r * h, x_t], axis=-1) @ W_h.T + b_h)
    return z * h + (1 - z) * cand


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    states = []
    for t in range(xs.shape[-2]):
        states.append(_step(xs[..., t, :], h0, W_z, b_z, W_r, b_r, W_h, b_h))
    return np.stack(states, axis=-2)


RIGHT_DIAGNOSES = ("state_not_carried",)
