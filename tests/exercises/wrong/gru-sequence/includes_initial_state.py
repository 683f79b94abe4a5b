"""Returns h_0..h_T: T + 1 states instead of T."""

import numpy as np

RIGHT_DIAGNOSES = ("initial_state_prepended",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def _step(h, x, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h, x], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    h_tilde = np.tanh(np.concatenate([r * h, x], axis=-1) @ W_h.T + b_h)
    return z * h + (1.0 - z) * h_tilde


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    params = (W_z, b_z, W_r, b_r, W_h, b_h)
    h = h0
    states = [h0]
    for t in range(xs.shape[-2]):
        h = _step(h, xs[..., t, :], *params)
        states.append(h)
    return np.stack(states, axis=-2)
