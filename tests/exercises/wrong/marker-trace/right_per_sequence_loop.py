"""Correct: loops over sequences and steps with column-vector products."""

import numpy as np


def _sigmoid(z):
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def _step(x, h, W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated):
    a = np.tanh(W_ax @ x + W_ah @ h + b_a)
    if not gated:
        return a
    u = _sigmoid(W_ux @ x + W_uh @ h + b_u)
    return h * u + a * (1.0 - u)


def marker_trace(x_marked, x_other, W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated):
    params = (W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated)
    N, T, _ = x_marked.shape
    trace = np.zeros(T)
    for n in range(N):
        h_m = h_o = np.zeros(b_a.shape[0])
        for t in range(T):
            h_m = _step(x_marked[n, t], h_m, *params)
            h_o = _step(x_other[n, t], h_o, *params)
            trace[t] += np.sum(np.abs(h_m - h_o))
    trace /= N
    share = trace[T - 1] / trace[1]
    return trace, float(share), float(np.exp(np.log(share) / (T - 2)))
