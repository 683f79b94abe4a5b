"""Input ignored by the gate: only the state's columns of W_r act, on h_prev."""

import numpy as np

HINT = ("Your gate does not react to the input. The gate reads the concatenation of h_prev "
        "and x_t, so every column of W_r is used: the first H on h_prev, the last D on x_t.")


def reset_gate(x_t, h_prev, W_r, b_r):
    H = h_prev.shape[-1]
    r = np.exp(-np.logaddexp(0.0, -(h_prev @ W_r[:, :H].T + b_r)))
    return r, r * h_prev
