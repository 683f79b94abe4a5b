"""Uses np.outer for the weight gradients, which flattens a batch: batched inputs raise."""

import numpy as np


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def gated_unit_bptt(x: np.ndarray, h0: np.ndarray,
                    W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
                    W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray,
                    y: np.ndarray) -> tuple[np.ndarray, ...]:
    T = x.shape[-2]
    h_list = [h0.astype(np.float64)]
    u_list, a_list = [], []
    for t in range(T):
        h = h_list[-1]
        u = _sigmoid(x[..., t, :] @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(x[..., t, :] @ W_ax.T + h @ W_ah.T + b_a)
        u_list.append(u)
        a_list.append(a)
        h_list.append(u * h + (1 - u) * a)

    dW_ux, dW_uh, db_u = np.zeros_like(W_ux), np.zeros_like(W_uh), np.zeros_like(b_u)
    dW_ax, dW_ah, db_a = np.zeros_like(W_ax), np.zeros_like(W_ah), np.zeros_like(b_a)
    dh = np.zeros_like(h_list[0])
    for t in range(T - 1, -1, -1):
        dh += h_list[t + 1] - y[..., t, :]
        u, a, h_prev = u_list[t], a_list[t], h_list[t]
        dq_u = dh * (h_prev - a) * u * (1 - u)
        dq_a = dh * (1 - u) * (1 - a ** 2)
        dW_ux += np.outer(dq_u, x[..., t, :])
        dW_uh += np.outer(dq_u, h_prev)
        db_u += dq_u
        dW_ax += np.outer(dq_a, x[..., t, :])
        dW_ah += np.outer(dq_a, h_prev)
        db_a += dq_a
        dh = u * dh + dq_u @ W_uh + dq_a @ W_ah
    return dh, dW_ux, dW_uh, db_u, dW_ax, dW_ah, db_a
