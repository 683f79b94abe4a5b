"""Mistake: off by one in the exponent, factor = share ** (1 / (T - 1)) instead of 1 / (T - 2)."""
import numpy as np


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def _run(x, W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated):
    N, T, _ = x.shape
    h = np.zeros((N, W_ax.shape[0]))
    states = []
    for t in range(T):
        a = np.tanh(x[:, t] @ W_ax.T + h @ W_ah.T + b_a)
        if gated:
            u = _sigmoid(x[:, t] @ W_ux.T + h @ W_uh.T + b_u)
            h = u * h + (1 - u) * a
        else:
            h = a
        states.append(h)
    return np.stack(states, axis=1)


def marker_trace(x_marked, x_other, W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated):
    T = x_marked.shape[1]
    hm = _run(x_marked, W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated)
    ho = _run(x_other, W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated)
    trace = np.abs(hm - ho).sum(axis=-1).mean(axis=0)
    share = float(trace[-1] / trace[1])
    return trace, share, share ** (1 / (T - 1))


RIGHT_DIAGNOSES = ("factor_exponent_off_by_one",)
