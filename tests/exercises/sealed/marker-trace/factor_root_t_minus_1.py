"""Takes the factor as share ** (1 / (T - 1)) instead of share ** (1 / (T - 2))."""

import numpy as np

RIGHT_DIAGNOSES = ("factor_exponent_off_by_one",)


def sigmoid(v):
    return np.exp(-np.logaddexp(0.0, -v))


def states(x, W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated):
    h = np.zeros((x.shape[0], W_ax.shape[0]))
    out = np.zeros((*x.shape[:2], W_ax.shape[0]))
    for t in range(x.shape[1]):
        cand = np.tanh(x[:, t, :] @ W_ax.T + h @ W_ah.T + b_a)
        if gated:
            gate = sigmoid(x[:, t, :] @ W_ux.T + h @ W_uh.T + b_u)
            h = gate * h + (1 - gate) * cand
        else:
            h = cand
        out[:, t, :] = h
    return out


def marker_trace(x_marked: np.ndarray, x_other: np.ndarray,
                 W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
                 W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray,
                 gated: bool) -> tuple[np.ndarray, float, float]:
    args = (W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated)
    diff = states(x_marked, *args) - states(x_other, *args)
    trace = np.abs(diff).sum(axis=-1).mean(axis=0)
    T = len(trace)
    share = trace[-1] / trace[1]
    factor = share ** (1 / (T - 1))   # one factor per step after the first
    return trace, float(share), float(factor)
