"""float32 arithmetic, cast back to float64 at the end."""

import numpy as np

HINT = ("Your values agree with the expected ones to only a few significant digits, and drift "
        "further over the steps. That is the precision of float32: somewhere the arrays were "
        "converted to single precision (np.float32, astype, dtype=...). Keep every step in "
        "float64.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))  # stays float32 for float32 input


def _step(h, x, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h, x], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    h_tilde = np.tanh(np.concatenate([r * h, x], axis=-1) @ W_h.T + b_h)
    return z * h + (np.float32(1.0) - z) * h_tilde


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    params = [p.astype(np.float32) for p in (W_z, b_z, W_r, b_r, W_h, b_h)]
    xs = xs.astype(np.float32)
    h = h0.astype(np.float32)
    states = []
    for t in range(xs.shape[-2]):
        h = _step(h, xs[..., t, :], *params)
        states.append(h)
    return np.stack(states, axis=-2).astype(np.float64)
