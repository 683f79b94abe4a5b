"""Takes dh_t/du_t as a_t - h_{t-1}, not h_{t-1} - a_t: the gate gradient has the wrong sign."""

import numpy as np

RIGHT_DIAGNOSES = ("gate_derivative_sign",)


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def gated_unit_bptt(x: np.ndarray, h0: np.ndarray,
                    W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
                    W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray,
                    y: np.ndarray) -> tuple[np.ndarray, ...]:
    T = x.shape[-2]
    h = np.asarray(h0, dtype=np.float64)
    prevs, us, cands, hs = [], [], [], []
    for t in range(T):
        xt = x[..., t, :]
        u = _sigmoid(xt @ W_ux.T + h @ W_uh.T + b_u)
        c = np.tanh(xt @ W_ax.T + h @ W_ah.T + b_a)
        prevs.append(h)
        h = u * h + (1 - u) * c
        us.append(u)
        cands.append(c)
        hs.append(h)

    rows = int(np.prod(x.shape[:-2]))
    H, D = W_ux.shape
    grads = {k: np.zeros_like(v) for k, v in
             {"W_ux": W_ux, "W_uh": W_uh, "b_u": b_u, "W_ax": W_ax, "W_ah": W_ah,
              "b_a": b_a}.items()}
    dh = np.zeros_like(h)
    for t in range(T - 1, -1, -1):
        u, c, hp = us[t], cands[t], prevs[t]
        dh = dh + hs[t] - y[..., t, :]
        d_u = dh * (c - hp) * u * (1 - u)
        d_c = dh * (1 - u) * (1 - c ** 2)
        xt = x[..., t, :].reshape(rows, D)
        hp2 = hp.reshape(rows, H)
        grads["W_ux"] += d_u.reshape(rows, H).T @ xt
        grads["W_uh"] += d_u.reshape(rows, H).T @ hp2
        grads["b_u"] += d_u.reshape(rows, H).sum(0)
        grads["W_ax"] += d_c.reshape(rows, H).T @ xt
        grads["W_ah"] += d_c.reshape(rows, H).T @ hp2
        grads["b_a"] += d_c.reshape(rows, H).sum(0)
        dh = u * dh + d_u @ W_uh + d_c @ W_ah
    return (dh, grads["W_ux"], grads["W_uh"], grads["b_u"],
            grads["W_ax"], grads["W_ah"], grads["b_a"])
