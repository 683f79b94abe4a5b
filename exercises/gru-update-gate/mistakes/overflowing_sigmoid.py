"""Unstable sigmoid: exp(a) / (1 + exp(a)) gives inf / inf = NaN once a > 709."""

import numpy as np

HINT = ("Your gate is right for moderate inputs but returns NaN where the pre-activation is "
        "large. In float64, exp overflows to inf above about 709, and inf / inf is NaN. Write "
        "the sigmoid so that exp only ever sees a non-positive argument: "
        "np.exp(-np.logaddexp(0, -a)), or e = np.exp(-np.abs(a)) and np.where(a >= 0, 1, e) / "
        "(1 + e) (np.where evaluates both of its branches, so a sign split written inside it "
        "still overflows).")


def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    a = joined @ W_z.T + b_z
    return np.exp(a) / (1.0 + np.exp(a))
