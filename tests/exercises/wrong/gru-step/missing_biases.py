"""All three biases left out of the affine maps."""

import numpy as np

RIGHT_DIAGNOSES = ("missing_bias",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(hx @ W_z.T)
    r = _sigmoid(hx @ W_r.T)
    h_tilde = np.tanh(np.concatenate([r * h_prev, x_t], axis=-1) @ W_h.T)
    return z * h_prev + (1.0 - z) * h_tilde
