"""Correct: one row at a time, with the explicit Jacobian dh_t/dh_{t-1}."""

import numpy as np


def _sigmoid(z):
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def gated_unit_bptt(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a, y):
    if x.ndim == 3:
        rows = [gated_unit_bptt(x[n], h0[n], W_ux, W_uh, b_u, W_ax, W_ah, b_a, y[n])
                for n in range(x.shape[0])]
        dh0 = np.stack([r[0] for r in rows])
        return (dh0, *(sum(r[k] for r in rows) for k in range(1, 7)))
    hs, us, cands = [h0], [], []
    for t in range(x.shape[0]):
        u = _sigmoid(W_ux @ x[t] + W_uh @ hs[-1] + b_u)
        a = np.tanh(W_ax @ x[t] + W_ah @ hs[-1] + b_a)
        hs.append(u * hs[-1] + (1.0 - u) * a)
        us.append(u)
        cands.append(a)
    grads = [np.zeros_like(p) for p in (W_ux, W_uh, b_u, W_ax, W_ah, b_a)]
    dh = np.zeros_like(h0)
    for t in reversed(range(x.shape[0])):
        dh = dh + hs[t + 1] - y[t]
        u, a, hp = us[t], cands[t], hs[t]
        gu = (hp - a) * u * (1.0 - u)
        ga = (1.0 - u) * (1.0 - a**2)
        jacobian = np.diag(u) + np.diag(gu) @ W_uh + np.diag(ga) @ W_ah
        du, da = gu * dh, ga * dh
        for k, (g, v) in enumerate(((du, x[t]), (du, hp), (du, None),
                                    (da, x[t]), (da, hp), (da, None))):
            grads[k] += g if v is None else np.outer(g, v)
        dh = jacobian.T @ dh
    return (dh, *grads)
