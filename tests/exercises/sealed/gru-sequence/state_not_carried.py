"""Runs every step from h0: the new state is stored but never fed into the next step."""

import numpy as np

RIGHT_DIAGNOSES = ("state_not_carried",)


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = np.exp(-np.logaddexp(0.0, -(hx @ W_z.T + b_z)))
    r = np.exp(-np.logaddexp(0.0, -(hx @ W_r.T + b_r)))
    h_tilde = np.tanh(np.concatenate([r * h_prev, x_t], axis=-1) @ W_h.T + b_h)
    return z * h_prev + (1 - z) * h_tilde


def gru_sequence(xs: np.ndarray, h0: np.ndarray,
                 W_z: np.ndarray, b_z: np.ndarray,
                 W_r: np.ndarray, b_r: np.ndarray,
                 W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    h_prev = h0
    states = []
    for x_t in np.moveaxis(xs, -2, 0):
        h_t = gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h)
        states.append(h_t)
    stacked = np.array(states, dtype=np.float64)
    # batch-first: the steps were gathered along axis 0, the batch goes in front
    return stacked if stacked.ndim < 3 else stacked.swapaxes(0, 1)
