"""Mixes the other way round: h_t = (1 - u_t) * h_{t-1} + u_t * a_t."""

import numpy as np

RIGHT_DIAGNOSES = ("swapped_gate",)


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def gated_unit(x: np.ndarray, h0: np.ndarray,
               W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
               W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray) -> np.ndarray:
    T = x.shape[-2]
    h = h0.astype(np.float64)
    out = np.empty((*x.shape[:-1], h0.shape[-1]))
    for t in range(T):
        xt = x[..., t, :]
        u = _sigmoid(xt @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(xt @ W_ax.T + h @ W_ah.T + b_a)
        h = (1 - u) * h + u * a
        out[..., t, :] = h
    return out
