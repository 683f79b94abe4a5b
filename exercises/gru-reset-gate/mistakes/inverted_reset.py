"""Inverted reset: gates the state with 1 - r ("r is how much to erase")."""

import numpy as np

HINT = ("Your gate is right but the reset state is not. In Cho et al.'s GRU, r_t is the share "
        "of the previous state the candidate is allowed to SEE: r near 1 keeps the memory "
        "visible, r near 0 hides it. Which factor should multiply h_prev for that to hold?")


def reset_gate(x_t, h_prev, W_r, b_r):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    r = np.exp(-np.logaddexp(0.0, -(joined @ W_r.T + b_r)))
    return r, (1.0 - r) * h_prev
