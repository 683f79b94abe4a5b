"""Backpropagates only the last step's loss term: h_t - y_t is never added for t < T."""

import numpy as np

RIGHT_DIAGNOSES = ("loss_only_at_last_step",)


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def gated_unit_bptt(x: np.ndarray, h0: np.ndarray,
                    W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
                    W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray,
                    y: np.ndarray) -> tuple[np.ndarray, ...]:
    T = x.shape[-2]
    hs = [np.asarray(h0, dtype=np.float64)]
    us, as_ = [], []
    for t in range(T):
        xt = x[..., t, :]
        u = _sigmoid(xt @ W_ux.T + hs[-1] @ W_uh.T + b_u)
        a = np.tanh(xt @ W_ax.T + hs[-1] @ W_ah.T + b_a)
        us.append(u)
        as_.append(a)
        hs.append(u * hs[-1] + (1 - u) * a)

    grads = [np.zeros_like(p, dtype=np.float64) for p in (W_ux, W_uh, b_u, W_ax, W_ah, b_a)]
    dW_ux, dW_uh, db_u, dW_ax, dW_ah, db_a = grads
    dh = hs[T] - y[..., T - 1, :]
    for t in reversed(range(T)):
        u, a, hp, xt = us[t], as_[t], hs[t], x[..., t, :]
        du = dh * (hp - a) * u * (1 - u)
        da = dh * (1 - u) * (1 - a ** 2)
        # rows of a batch (or the single sequence as one row) are summed by the einsums
        du2, da2 = np.atleast_2d(du), np.atleast_2d(da)
        xt2, hp2 = np.atleast_2d(xt), np.atleast_2d(hp)
        dW_ux += np.einsum("ni,nj->ij", du2, xt2)
        dW_uh += np.einsum("ni,nj->ij", du2, hp2)
        db_u += du2.sum(0)
        dW_ax += np.einsum("ni,nj->ij", da2, xt2)
        dW_ah += np.einsum("ni,nj->ij", da2, hp2)
        db_a += da2.sum(0)
        dh = u * dh + du @ W_uh + da @ W_ah
    return dh, dW_ux, dW_uh, db_u, dW_ax, dW_ah, db_a
