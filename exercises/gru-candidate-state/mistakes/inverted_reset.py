"""Inverted reset: the candidate sees (1 - r_t) * h_prev ("r is how much to erase")."""

import numpy as np

HINT = ("In Cho et al.'s GRU, r_t is the share of the previous state the candidate is allowed "
        "to SEE: r near 1 keeps the memory visible, r near 0 hides it. Which factor should "
        "multiply h_prev for that to hold?")


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    joined = np.concatenate([(1.0 - r_t) * h_prev, x_t], axis=-1)
    return np.tanh(joined @ W_h.T + b_h)
