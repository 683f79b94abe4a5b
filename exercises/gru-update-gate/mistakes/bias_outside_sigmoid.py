"""Bias added after the sigmoid: sigmoid(W_z [h, x]) + b_z."""

import numpy as np

HINT = ("Some of your gate values leave the interval (0, 1), which a share of the old state "
        "cannot do. Check where the bias enters: everything that shifts the gate belongs "
        "inside the squashing function, so that the result stays between 0 and 1.")


def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    return np.exp(-np.logaddexp(0.0, -(joined @ W_z.T))) + b_z
