"""Computes every step from h0 instead of the previous step's state."""

import numpy as np

RIGHT_DIAGNOSES = ("state_not_carried",)


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    out = []
    for x in np.moveaxis(xs, -2, 0):
        hx = np.concatenate([h0, x], axis=-1)
        z = np.exp(-np.logaddexp(0, -(hx @ W_z.T + b_z)))
        r = np.exp(-np.logaddexp(0, -(hx @ W_r.T + b_r)))
        c = np.tanh(np.concatenate([r * h0, x], axis=-1) @ W_h.T + b_h)
        out.append(z * h0 + (1 - z) * c)
    result = np.array(out)
    # batch-first: the steps were gathered along axis 0, the batch goes in front
    return result if result.ndim < 3 else result.swapaxes(0, 1)
