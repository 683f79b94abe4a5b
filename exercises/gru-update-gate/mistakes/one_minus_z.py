"""Inverted semantics: returns 1 - z, the share of the candidate, instead of z."""

import numpy as np

HINT = ("Your gate and the expected one add up to 1 in every entry. In this course (Cho et "
        "al.) z_t is the share of the OLD state that survives, "
        "h_t = z_t * h_prev + (1 - z_t) * candidate, not the amount of change. Which of the "
        "two coefficients did you return?")


def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    z = np.exp(-np.logaddexp(0.0, -(joined @ W_z.T + b_z)))
    return 1.0 - z
