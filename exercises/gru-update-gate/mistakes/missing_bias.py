"""Missing bias: sigmoid(W_z [h, x]) without + b_z."""

import numpy as np

HINT = ("Your gate is off by a per-unit shift inside the sigmoid. The affine map has two "
        "parameters; is every one of the function's arguments used? Test with h_prev and x_t "
        "set to zero: the gate should then be sigmoid of something that is not always 0.")


def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    return np.exp(-np.logaddexp(0.0, -(joined @ W_z.T)))
