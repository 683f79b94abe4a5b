"""Keeps (1 - z) of the old state and takes z of the candidate."""

import numpy as np

RIGHT_DIAGNOSES = ("swapped_update_gate", "complement")


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    h = h0.astype(float)
    out = []
    for x in np.moveaxis(xs, -2, 0):
        hx = np.concatenate([h, x], axis=-1)
        z = 1 / (1 + np.exp(-np.clip(hx @ W_z.T + b_z, -700, 700)))
        r = 1 / (1 + np.exp(-np.clip(hx @ W_r.T + b_r, -700, 700)))
        c = np.tanh(np.concatenate([r * h, x], axis=-1) @ W_h.T + b_h)
        h = (1 - z) * h + z * c
        out.append(h)
    return np.stack(out, axis=-2)
