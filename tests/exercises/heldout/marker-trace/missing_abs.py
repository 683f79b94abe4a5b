"""Sums the signed differences h_t - h'_t over the units, without taking absolute values."""

import numpy as np

RIGHT_DIAGNOSES = ("signed_trace", "signed_difference")


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -z))


def _run(x: np.ndarray, W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
         W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray, gated: bool) -> np.ndarray:
    N, T, _ = x.shape
    H = W_ah.shape[0]
    h = np.zeros((N, H))
    out = np.zeros((N, T, H))
    for t in range(T):
        a = np.tanh(x[:, t] @ W_ax.T + h @ W_ah.T + b_a)
        if gated:
            u = _sigmoid(x[:, t] @ W_ux.T + h @ W_uh.T + b_u)
            h = u * h + (1 - u) * a
        else:
            h = a
        out[:, t] = h
    return out


def marker_trace(x_marked: np.ndarray, x_other: np.ndarray,
                 W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
                 W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray,
                 gated: bool) -> tuple[np.ndarray, float, float]:
    T = x_marked.shape[1]
    params = (W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated)
    h1 = _run(x_marked, *params)
    h2 = _run(x_other, *params)
    trace = (h1 - h2).sum(axis=2).mean(axis=0)
    share = float(trace[T - 1] / trace[1])
    factor = float(share ** (1.0 / (T - 2)))
    return trace, share, factor
