"""Mistake: forgets the direct path u_t * dh to h_{t-1}; only the paths through the gate and candidate are carried back."""
import numpy as np


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def gated_unit_bptt(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a, y):
    T = x.shape[-2]
    h = h0
    hs, us, cands = [h0], [], []
    for t in range(T):
        xt = x[..., t, :]
        u = _sigmoid(xt @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(xt @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1 - u) * a
        hs.append(h)
        us.append(u)
        cands.append(a)
    grads = [np.zeros_like(p) for p in (W_ux, W_uh, b_u, W_ax, W_ah, b_a)]
    dh = np.zeros_like(h0)
    for t in reversed(range(T)):
        dh = dh + hs[t + 1] - y[..., t, :]
        u, a, h_prev = us[t], cands[t], hs[t]
        xt2 = np.atleast_2d(x[..., t, :])
        hp2 = np.atleast_2d(h_prev)
        dq_u = dh * (h_prev - a) * u * (1 - u)
        dq_a = dh * (1 - u) * (1 - a**2)
        du2, da2 = np.atleast_2d(dq_u), np.atleast_2d(dq_a)
        grads[0] += du2.T @ xt2
        grads[1] += du2.T @ hp2
        grads[2] += du2.sum(axis=0)
        grads[3] += da2.T @ xt2
        grads[4] += da2.T @ hp2
        grads[5] += da2.sum(axis=0)
        dh = 0.0 + dq_u @ W_uh + dq_a @ W_ah
    return (dh, *grads)


RIGHT_DIAGNOSES = ("no_direct_path",)
