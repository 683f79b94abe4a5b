"""Input ignored: only the state's columns of W_z act, on h_prev."""

import numpy as np

HINT = ("Your gate does not react to the input. The gate reads the concatenation of h_prev "
        "and x_t, so every column of W_z is used: the first H on h_prev, the last D on x_t.")


def update_gate(x_t, h_prev, W_z, b_z):
    H = h_prev.shape[-1]
    return np.exp(-np.logaddexp(0.0, -(h_prev @ W_z[:, :H].T + b_z)))
