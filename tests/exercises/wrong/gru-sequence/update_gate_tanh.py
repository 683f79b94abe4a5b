"""Uses tanh for the update gate."""

import numpy as np

RIGHT_DIAGNOSES = ("sigmoid_tanh",)


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    h = np.array(h0, dtype=float)
    out = []
    for x in np.moveaxis(xs, -2, 0):
        hx = np.concatenate([h, x], axis=-1)
        z = np.tanh(hx @ W_z.T + b_z)
        r = np.exp(-np.logaddexp(0, -(hx @ W_r.T + b_r)))
        c = np.tanh(np.concatenate([r * h, x], axis=-1) @ W_h.T + b_h)
        h = z * h + (1 - z) * c
        out.append(h)
    return np.stack(out, axis=-2)
