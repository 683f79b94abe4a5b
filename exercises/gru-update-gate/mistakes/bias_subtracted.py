"""Bias subtracted: sigmoid(W_z [h, x] - b_z)."""

import numpy as np

HINT = ("Your gate is shifted the wrong way in every unit, as if the bias pushed against "
        "itself. An affine map adds its bias; check the sign with which b_z enters.")


def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    return np.exp(-np.logaddexp(0.0, -(joined @ W_z.T - b_z)))
