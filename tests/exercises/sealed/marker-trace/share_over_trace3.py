"""Divides by trace[2] (length 3) instead of trace[1], the trace at length 2."""

import numpy as np

RIGHT_DIAGNOSES = ("reference_index_off_by_one",)


def marker_trace(x_marked: np.ndarray, x_other: np.ndarray,
                 W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
                 W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray,
                 gated: bool) -> tuple[np.ndarray, float, float]:
    N, T, _ = x_marked.shape
    H = W_ah.shape[0]
    h1 = np.zeros((N, H))
    h2 = np.zeros((N, H))
    trace = np.zeros(T)
    for t in range(T):
        a1 = np.tanh(x_marked[:, t, :] @ W_ax.T + h1 @ W_ah.T + b_a)
        a2 = np.tanh(x_other[:, t, :] @ W_ax.T + h2 @ W_ah.T + b_a)
        if gated:
            u1 = np.exp(-np.logaddexp(0, -(x_marked[:, t, :] @ W_ux.T + h1 @ W_uh.T + b_u)))
            u2 = np.exp(-np.logaddexp(0, -(x_other[:, t, :] @ W_ux.T + h2 @ W_uh.T + b_u)))
            h1 = u1 * h1 + (1 - u1) * a1
            h2 = u2 * h2 + (1 - u2) * a2
        else:
            h1, h2 = a1, a2
        trace[t] = np.mean(np.sum(np.abs(h1 - h2), axis=1))
    share = trace[T - 1] / trace[2]
    factor = share ** (1.0 / (T - 2))
    return trace, float(share), float(factor)
