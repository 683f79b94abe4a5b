"""The candidate sees h instead of r * h (the reset gate is computed but not used)."""

import numpy as np

RIGHT_DIAGNOSES = ("missing_reset",)


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    h = np.array(h0, dtype=float)
    out = np.zeros((*xs.shape[:-1], h.shape[-1]))
    for t in range(xs.shape[-2]):
        hx = np.concatenate([h, xs[..., t, :]], axis=-1)
        z = np.exp(-np.logaddexp(0, -(hx @ W_z.T + b_z)))
        r = np.exp(-np.logaddexp(0, -(hx @ W_r.T + b_r)))  # noqa: F841
        c = np.tanh(hx @ W_h.T + b_h)
        h = z * h + (1 - z) * c
        out[..., t, :] = h
    return out
