"""float32 arithmetic, cast back to float64 at the end."""

import numpy as np

HINT = ("Your values agree with the expected ones to about 7 significant digits, then drift. "
        "That is the precision of float32: somewhere the arrays were converted to single "
        "precision (np.float32, astype, dtype=...). Keep every step in float64.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))  # stays float32 for float32 input


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    f32 = np.float32
    h_prev, x_t = h_prev.astype(f32), x_t.astype(f32)
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(hx @ W_z.astype(f32).T + b_z.astype(f32))
    r = _sigmoid(hx @ W_r.astype(f32).T + b_r.astype(f32))
    joined = np.concatenate([r * h_prev, x_t], axis=-1)
    h_tilde = np.tanh(joined @ W_h.astype(f32).T + b_h.astype(f32))
    return (z * h_prev + (f32(1.0) - z) * h_tilde).astype(np.float64)
