"""Missing bias: sigmoid(W_r [h, x]) without + b_r."""

import numpy as np

HINT = ("Both outputs are off, and the gate is shifted by a different amount in each unit, as if "
        "something inside the sigmoid were missing. Is every argument of the function used?")


def reset_gate(x_t, h_prev, W_r, b_r):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    r = np.exp(-np.logaddexp(0.0, -(joined @ W_r.T)))
    return r, r * h_prev
