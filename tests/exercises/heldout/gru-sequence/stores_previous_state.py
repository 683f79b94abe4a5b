"""Stores each state before updating it, so the output is h_0 .. h_{T-1} instead of h_1 .. h_T."""

import numpy as np

RIGHT_DIAGNOSES = ("off_by_one",)


def _sigmoid(a: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -a))


def gru_sequence(xs: np.ndarray, h0: np.ndarray,
                 W_z: np.ndarray, b_z: np.ndarray,
                 W_r: np.ndarray, b_r: np.ndarray,
                 W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    T = xs.shape[-2]
    H = h0.shape[-1]
    out = np.zeros((*h0.shape[:-1], T, H))
    h = h0.astype(np.float64)
    for t in range(T):
        out[..., t, :] = h
        hx = np.concatenate([h, xs[..., t, :]], axis=-1)
        z = _sigmoid(hx @ W_z.T + b_z)
        r = _sigmoid(hx @ W_r.T + b_r)
        h_tilde = np.tanh(np.concatenate([r * h, xs[..., t, :]], axis=-1) @ W_h.T + b_h)
        h = z * h + (1 - z) * h_tilde
    return out
