"""Shares the state across both runs: the second starts from the first's last state."""

import numpy as np

RIGHT_DIAGNOSES = ("state_carried_between_runs",)


def sigmoid(z: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -z))


def marker_trace(x_marked: np.ndarray, x_other: np.ndarray,
                 W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
                 W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray,
                 gated: bool) -> tuple[np.ndarray, float, float]:
    N, T, _ = x_marked.shape
    H = W_ah.shape[0]
    h = np.zeros((N, H))
    runs = []
    for x in (x_marked, x_other):
        states = np.zeros((N, T, H))
        for t in range(T):
            a = np.tanh(x[:, t] @ W_ax.T + h @ W_ah.T + b_a)
            if gated:
                u = sigmoid(x[:, t] @ W_ux.T + h @ W_uh.T + b_u)
                h = u * h + (1 - u) * a
            else:
                h = a
            states[:, t] = h
        runs.append(states)
    trace = np.abs(runs[0] - runs[1]).sum(axis=2).mean(axis=0)
    share = trace[-1] / trace[1]
    factor = share ** (1 / (T - 2))
    return trace, float(share), float(factor)
