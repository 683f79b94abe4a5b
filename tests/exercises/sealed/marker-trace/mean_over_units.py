"""Averages the absolute differences over the hidden units instead of summing them."""

import numpy as np

RIGHT_DIAGNOSES = ("averaged_over_units",)


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def _step(h, x_t, W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated):
    a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
    if not gated:
        return a
    u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
    return u * h + (1 - u) * a


def marker_trace(x_marked: np.ndarray, x_other: np.ndarray,
                 W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
                 W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray,
                 gated: bool) -> tuple[np.ndarray, float, float]:
    N, T, _ = x_marked.shape
    H = W_ax.shape[0]
    hm = np.zeros((N, H))
    ho = np.zeros((N, H))
    trace = []
    for t in range(T):
        hm = _step(hm, x_marked[:, t], W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated)
        ho = _step(ho, x_other[:, t], W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated)
        trace.append(np.mean(np.abs(hm - ho)))
    trace = np.array(trace)
    share = trace[-1] / trace[1]
    return trace, share, share ** (1 / (T - 2))
