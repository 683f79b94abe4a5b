"""Uses a_t * (1 - a_t), the sigmoid's formula, as tanh's derivative instead of 1 - a_t^2."""

import numpy as np

RIGHT_DIAGNOSES = ("tanh_derivative_as_sigmoid",)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -z))


def _outer_sum(g: np.ndarray, v: np.ndarray) -> np.ndarray:
    return g.reshape(-1, g.shape[-1]).T @ v.reshape(-1, v.shape[-1])


def gated_unit_bptt(x: np.ndarray, h0: np.ndarray,
                    W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
                    W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray,
                    y: np.ndarray) -> tuple[np.ndarray, ...]:
    x = np.asarray(x, dtype=np.float64)
    h = np.asarray(h0, dtype=np.float64)
    T = x.shape[-2]
    hs, us, as_ = [h], [], []
    for t in range(T):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1.0 - u) * a
        hs.append(h)
        us.append(u)
        as_.append(a)

    dW_ux, dW_uh, db_u = np.zeros_like(W_ux), np.zeros_like(W_uh), np.zeros_like(b_u)
    dW_ax, dW_ah, db_a = np.zeros_like(W_ax), np.zeros_like(W_ah), np.zeros_like(b_a)
    dh = np.zeros_like(h)
    for t in reversed(range(T)):
        u, a, h_prev, x_t = us[t], as_[t], hs[t], x[..., t, :]
        dh = dh + (hs[t + 1] - y[..., t, :])
        du = dh * (h_prev - a) * u * (1.0 - u)
        da = dh * (1.0 - u) * a * (1.0 - a)
        dW_ux += _outer_sum(du, x_t)
        dW_uh += _outer_sum(du, h_prev)
        db_u += du.reshape(-1, du.shape[-1]).sum(axis=0)
        dW_ax += _outer_sum(da, x_t)
        dW_ah += _outer_sum(da, h_prev)
        db_a += da.reshape(-1, da.shape[-1]).sum(axis=0)
        dh = u * dh + du @ W_uh + da @ W_ah
    return dh, dW_ux, dW_uh, db_u, dW_ax, dW_ah, db_a
