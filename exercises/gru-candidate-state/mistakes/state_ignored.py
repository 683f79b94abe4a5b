"""Previous state left out: only the input's columns of W_h act, on x_t."""

import numpy as np

HINT = ("Your candidate does not react to the previous state, as if the reset gate were "
        "always closed. The affine map reads the reset state and x_t together, so every "
        "column of W_h is used: the first H on the reset state, the last D on x_t.")


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    H = h_prev.shape[-1]
    return np.tanh(x_t @ W_h[:, H:].T + b_h)
