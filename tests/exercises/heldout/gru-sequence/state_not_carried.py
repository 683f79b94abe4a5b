"""Computes every step from h0 instead of from the previous step's state."""

import numpy as np

RIGHT_DIAGNOSES = ("state_not_carried",)


def _sigmoid(a: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -a))


def _step(h: np.ndarray, x: np.ndarray, W_z: np.ndarray, b_z: np.ndarray,
          W_r: np.ndarray, b_r: np.ndarray, W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    hx = np.concatenate([h, x], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    h_tilde = np.tanh(np.concatenate([r * h, x], axis=-1) @ W_h.T + b_h)
    return z * h + (1 - z) * h_tilde


def gru_sequence(xs: np.ndarray, h0: np.ndarray,
                 W_z: np.ndarray, b_z: np.ndarray,
                 W_r: np.ndarray, b_r: np.ndarray,
                 W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    states = []
    for t in range(xs.shape[-2]):
        h_t = _step(h0, xs[..., t, :], W_z, b_z, W_r, b_r, W_h, b_h)
        states.append(h_t)
    stacked = np.array(states)
    # batch-first: the steps were gathered along axis 0, the batch goes in front
    return stacked if stacked.ndim < 3 else stacked.swapaxes(0, 1)
