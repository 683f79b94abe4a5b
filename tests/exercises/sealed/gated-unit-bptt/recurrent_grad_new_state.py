"""Forms dW_uh and dW_ah with the new state h_t instead of h_{t-1}, the state the step read."""

import numpy as np

RIGHT_DIAGNOSES = ("recurrent_gradients_from_new_state",)


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def _sum_outer(g, v):
    return g.reshape(-1, g.shape[-1]).T @ v.reshape(-1, v.shape[-1])


def gated_unit_bptt(x: np.ndarray, h0: np.ndarray,
                    W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
                    W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray,
                    y: np.ndarray) -> tuple[np.ndarray, ...]:
    T = x.shape[-2]
    h = np.asarray(h0, dtype=np.float64)
    cache = []
    for t in range(T):
        u = _sigmoid(x[..., t, :] @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(x[..., t, :] @ W_ax.T + h @ W_ah.T + b_a)
        h_new = u * h + (1 - u) * a
        cache.append((h, u, a, h_new))
        h = h_new

    dW_ux, dW_uh, db_u = np.zeros_like(W_ux), np.zeros_like(W_uh), np.zeros_like(b_u)
    dW_ax, dW_ah, db_a = np.zeros_like(W_ax), np.zeros_like(W_ah), np.zeros_like(b_a)
    carry = np.zeros_like(h)
    for t in reversed(range(T)):
        h_prev, u, a, h_t = cache[t]
        g = carry + (h_t - y[..., t, :])
        gu = g * (h_prev - a) * u * (1 - u)
        ga = g * (1 - u) * (1 - a ** 2)
        dW_ux += _sum_outer(gu, x[..., t, :])
        dW_uh += _sum_outer(gu, h_t)
        db_u += gu.reshape(-1, gu.shape[-1]).sum(axis=0)
        dW_ax += _sum_outer(ga, x[..., t, :])
        dW_ah += _sum_outer(ga, h_t)
        db_a += ga.reshape(-1, ga.shape[-1]).sum(axis=0)
        carry = g * u + gu @ W_uh + ga @ W_ah
    return carry, dW_ux, dW_uh, db_u, dW_ax, dW_ah, db_a
