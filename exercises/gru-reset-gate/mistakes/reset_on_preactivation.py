"""The reset state r_t * h_prev built from the gate's pre-activation (before the sigmoid)."""

import numpy as np

HINT = ("Your gate is right, but your reset state is not the gate times the previous state: "
        "it multiplies h_prev by the pre-activation, the value before the sigmoid. Use the "
        "gate itself, which lies between 0 and 1.")


def reset_gate(x_t, h_prev, W_r, b_r):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    a = joined @ W_r.T + b_r
    r = np.exp(-np.logaddexp(0.0, -a))
    return r, a * h_prev
