"""Input left out: only the state's columns of W_h act, on the reset state."""

import numpy as np

HINT = ("Your candidate does not react to the input. The affine map reads the reset state "
        "and x_t together, so every column of W_h is used: the first H on the reset state, "
        "the last D on x_t.")


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    H = h_prev.shape[-1]
    return np.tanh((r_t * h_prev) @ W_h[:, :H].T + b_h)
