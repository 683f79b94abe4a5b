"""Forgets to transpose the recurrent weights: h @ W_uh and h @ W_ah instead of h @ W.T."""

import numpy as np

RIGHT_DIAGNOSES = ("recurrent_weight_transposed",)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x: np.ndarray, h0: np.ndarray,
               W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
               W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray) -> np.ndarray:
    T = x.shape[-2]
    h = np.asarray(h0, dtype=np.float64)
    states = np.empty((*x.shape[:-1], h.shape[-1]))
    for t in range(T):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh + b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah + b_a)
        h = u * h + (1.0 - u) * a
        states[..., t, :] = h
    return states
