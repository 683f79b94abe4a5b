"""Averages the per-sequence ratios trace_T / trace_2 instead of dividing the averaged traces."""

import numpy as np

RIGHT_DIAGNOSES = ("mean_of_ratios",)


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def _run(x, W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated):
    N, T, _ = x.shape
    h = np.zeros((N, W_ax.shape[0]))
    hs = []
    for t in range(T):
        a = np.tanh(x[:, t] @ W_ax.T + h @ W_ah.T + b_a)
        if gated:
            u = _sigmoid(x[:, t] @ W_ux.T + h @ W_uh.T + b_u)
            h = u * h + (1 - u) * a
        else:
            h = a
        hs.append(h)
    return np.stack(hs, axis=1)


def marker_trace(x_marked: np.ndarray, x_other: np.ndarray,
                 W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
                 W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray,
                 gated: bool) -> tuple[np.ndarray, float, float]:
    p = (W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated)
    dist = np.abs(_run(x_marked, *p) - _run(x_other, *p)).sum(axis=2)   # (N, T)
    trace = dist.mean(axis=0)
    share = float(np.mean(dist[:, -1] / dist[:, 1]))
    T = trace.shape[0]
    return trace, share, share ** (1 / (T - 2))
