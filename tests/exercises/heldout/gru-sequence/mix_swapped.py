"""Mixes with h_t = (1 - z_t) * h_{t-1} + z_t * h_tilde, swapping the roles of z_t and 1 - z_t."""

import numpy as np

RIGHT_DIAGNOSES = ("swapped_update_gate",)


def _sigmoid(a: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -a))


def gru_sequence(xs: np.ndarray, h0: np.ndarray,
                 W_z: np.ndarray, b_z: np.ndarray,
                 W_r: np.ndarray, b_r: np.ndarray,
                 W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    H = h0.shape[-1]
    states = np.empty((*xs.shape[:-1], H))
    h = np.array(h0, dtype=np.float64)
    for t, x in enumerate(np.moveaxis(xs, -2, 0)):
        hx = np.concatenate([h, x], axis=-1)
        z = _sigmoid(hx @ W_z.T + b_z)
        r = _sigmoid(hx @ W_r.T + b_r)
        c = np.tanh(np.concatenate([r * h, x], axis=-1) @ W_h.T + b_h)
        h = (1 - z) * h + z * c
        states[..., t, :] = h
    return states
