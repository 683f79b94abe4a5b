"""Stores the state before the update, returning h_0 .. h_{T-1} instead of h_1 .. h_T."""

import numpy as np

RIGHT_DIAGNOSES = ("states_shifted",)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x: np.ndarray, h0: np.ndarray,
               W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
               W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray) -> np.ndarray:
    T = x.shape[-2]
    H = h0.shape[-1]
    states = np.zeros((*x.shape[:-2], T, H))
    h = np.asarray(h0, dtype=np.float64)
    for t in range(T):
        states[..., t, :] = h
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1.0 - u) * a
    return states
