# Written as a wrong solution while gated-unit failed a test whose call warned (issue 26).
"""Correct under the course's warnings policy ("note"): 1 / (1 + exp(-q)) warns, right values."""

import numpy as np


def sigmoid(q: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-q))


def gated_unit(x: np.ndarray, h0: np.ndarray,
               W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
               W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray) -> np.ndarray:
    T = x.shape[-2]
    h = np.asarray(h0, dtype=np.float64)
    states = np.empty((*x.shape[:-1], h.shape[-1]))
    for t in range(T):
        x_t = x[..., t, :]
        u = sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1.0 - u) * a
        states[..., t, :] = h
    return states
