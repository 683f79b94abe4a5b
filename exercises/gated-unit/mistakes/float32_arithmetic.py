"""float32 arithmetic, cast back to float64 at the end."""

import numpy as np

HINT = ("Your values agree with the expected ones to only a few significant digits, and drift "
        "further over the steps. That is the precision of float32: somewhere the arrays were "
        "converted to single precision (np.float32, astype, dtype=...). Keep every step in "
        "float64.")


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))  # stays float32 for float32 input


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    W_ux, W_uh, b_u, W_ax, W_ah, b_a = (
        np.asarray(p, dtype=np.float32) for p in (W_ux, W_uh, b_u, W_ax, W_ah, b_a))
    x = np.asarray(x, dtype=np.float32)
    h = np.asarray(h0, dtype=np.float32)
    states = []
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (np.float32(1.0) - u) * a
        states.append(h)
    return np.stack(states, axis=-2).astype(np.float64)
