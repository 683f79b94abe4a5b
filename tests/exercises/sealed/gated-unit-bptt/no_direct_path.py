"""Drops the direct path u_t * dh_t when carrying the gradient back to h_{t-1}."""

import numpy as np

RIGHT_DIAGNOSES = ("no_direct_path",)


def sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit_bptt(x: np.ndarray, h0: np.ndarray,
                    W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
                    W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray,
                    y: np.ndarray) -> tuple[np.ndarray, ...]:
    x = np.asarray(x, dtype=np.float64)
    T = x.shape[-2]
    H = h0.shape[-1]
    h_all = np.empty((*x.shape[:-2], T + 1, H))
    u_all = np.empty((*x.shape[:-2], T, H))
    a_all = np.empty((*x.shape[:-2], T, H))
    h_all[..., 0, :] = h0
    for t in range(T):
        h = h_all[..., t, :]
        u_all[..., t, :] = sigmoid(x[..., t, :] @ W_ux.T + h @ W_uh.T + b_u)
        a_all[..., t, :] = np.tanh(x[..., t, :] @ W_ax.T + h @ W_ah.T + b_a)
        u, a = u_all[..., t, :], a_all[..., t, :]
        h_all[..., t + 1, :] = u * h + (1 - u) * a

    dW_ux = np.zeros(W_ux.shape)
    dW_uh = np.zeros(W_uh.shape)
    db_u = np.zeros(b_u.shape)
    dW_ax = np.zeros(W_ax.shape)
    dW_ah = np.zeros(W_ah.shape)
    db_a = np.zeros(b_a.shape)
    dh_next = np.zeros(h0.shape)
    for t in range(T - 1, -1, -1):
        dh = dh_next + h_all[..., t + 1, :] - y[..., t, :]
        h_prev = h_all[..., t, :]
        u, a = u_all[..., t, :], a_all[..., t, :]
        dzu = dh * (h_prev - a) * u * (1 - u)
        dza = dh * (1 - u) * (1 - a * a)
        x2 = x[..., t, :].reshape(-1, x.shape[-1])
        hp2 = h_prev.reshape(-1, H)
        dzu2, dza2 = dzu.reshape(-1, H), dza.reshape(-1, H)
        dW_ux += dzu2.T @ x2
        dW_uh += dzu2.T @ hp2
        db_u += dzu2.sum(axis=0)
        dW_ax += dza2.T @ x2
        dW_ah += dza2.T @ hp2
        db_a += dza2.sum(axis=0)
        dh_next = dzu @ W_uh + dza @ W_ah
    return dh_next, dW_ux, dW_uh, db_u, dW_ax, dW_ah, db_a
