"""Scalar gate: one number per step (the mean pre-activation) broadcast to all H units."""

import numpy as np

HINT = ("All H entries of your gate are equal, so every hidden unit would show the same share "
        "of its old value. The reset gate is a vector: each unit has its own row of W_r and "
        "its own bias, and gets its own sigmoid. Nothing should be summed or averaged over "
        "the hidden axis.")


def reset_gate(x_t, h_prev, W_r, b_r):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    a = joined @ W_r.T + b_r
    r = np.exp(-np.logaddexp(0.0, -a.mean(axis=-1, keepdims=True)))
    r = np.broadcast_to(r, a.shape).copy()
    return r, r * h_prev
