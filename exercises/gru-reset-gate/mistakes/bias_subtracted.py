"""Bias subtracted: sigmoid(W_r [h, x] - b_r)."""

import numpy as np

HINT = ("Both outputs are off, and the gate is shifted the wrong way in every unit, as if the "
        "bias pushed against itself. An affine map adds its bias; check the sign with which "
        "b_r enters.")


def reset_gate(x_t, h_prev, W_r, b_r):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    r = np.exp(-np.logaddexp(0.0, -(joined @ W_r.T - b_r)))
    return r, r * h_prev
