"""Inverted gate: returns 1 - r ("how much to erase") and gates the state with it."""

import numpy as np

HINT = ("Your gate and the expected one add up to 1 in every entry. In Cho et al.'s GRU, r_t "
        "is the share of the previous state the candidate is allowed to SEE, not the share "
        "to erase: r near 1 keeps the memory visible. Which of the two did you return?")


def reset_gate(x_t, h_prev, W_r, b_r):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    erase = 1.0 - np.exp(-np.logaddexp(0.0, -(joined @ W_r.T + b_r)))
    return erase, erase * h_prev
