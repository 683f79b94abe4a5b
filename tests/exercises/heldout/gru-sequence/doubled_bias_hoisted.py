"""Hoists the input products with their biases, then adds the biases again in the loop."""

import numpy as np

RIGHT_DIAGNOSES = ("biases_counted_twice",)


def _sigmoid(a: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -a))


def gru_sequence(xs: np.ndarray, h0: np.ndarray,
                 W_z: np.ndarray, b_z: np.ndarray,
                 W_r: np.ndarray, b_r: np.ndarray,
                 W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    H = h0.shape[-1]
    # the input halves do not depend on the state: compute them once for all steps
    xz = xs @ W_z[:, H:].T + b_z
    xr = xs @ W_r[:, H:].T + b_r
    xh = xs @ W_h[:, H:].T + b_h
    h = np.asarray(h0, dtype=np.float64)
    states = np.empty((*xs.shape[:-1], H))
    for t in range(xs.shape[-2]):
        z = _sigmoid(h @ W_z[:, :H].T + xz[..., t, :] + b_z)
        r = _sigmoid(h @ W_r[:, :H].T + xr[..., t, :] + b_r)
        h_tilde = np.tanh((r * h) @ W_h[:, :H].T + xh[..., t, :] + b_h)
        h = z * h + (1 - z) * h_tilde
        states[..., t, :] = h
    return states
