"""Averages the signed differences over the pairs before taking absolute values per unit."""

import numpy as np

RIGHT_DIAGNOSES = ("pairs_averaged_before_distance",)


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def _states(x, W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated):
    N, T, _ = x.shape
    h = np.zeros((N, W_ah.shape[0]))
    out = np.empty((N, T, h.shape[1]))
    for t in range(T):
        a = np.tanh(x[:, t, :] @ W_ax.T + h @ W_ah.T + b_a)
        if gated:
            u = _sigmoid(x[:, t, :] @ W_ux.T + h @ W_uh.T + b_u)
            h = u * h + (1.0 - u) * a
        else:
            h = a
        out[:, t, :] = h
    return out


def marker_trace(x_marked: np.ndarray, x_other: np.ndarray,
                 W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
                 W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray,
                 gated: bool) -> tuple[np.ndarray, float, float]:
    params = (W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated)
    mean_diff = (_states(x_marked, *params) - _states(x_other, *params)).mean(axis=0)
    trace = np.abs(mean_diff).sum(axis=-1)
    share = float(trace[-1] / trace[1])
    factor = float(share ** (1.0 / (len(trace) - 2)))
    return trace, share, factor
