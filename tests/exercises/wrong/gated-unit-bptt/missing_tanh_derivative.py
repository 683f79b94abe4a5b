"""Candidate path without the tanh derivative 1 - a^2."""

import numpy as np

RIGHT_DIAGNOSES = ("drop_factor", "drop_derivative", "missing_tanh_derivative")


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def _outer_sum(g, v):
    return g.reshape(-1, g.shape[-1]).T @ v.reshape(-1, v.shape[-1])


def gated_unit_bptt(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a, y):
    h = h0
    T = x.shape[-2]
    prev, gates, cands, states = [], [], [], []
    for t in range(T):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        prev.append(h)
        h = u * h + (1.0 - u) * a
        gates.append(u)
        cands.append(a)
        states.append(h)

    grads = [np.zeros_like(p) for p in (W_ux, W_uh, b_u, W_ax, W_ah, b_a)]
    dh = np.zeros_like(h)
    for t in range(T - 1, -1, -1):
        u, a, h_prev, x_t = gates[t], cands[t], prev[t], x[..., t, :]
        dh = dh + (states[t] - y[..., t, :])
        dz_u = dh * (h_prev - a) * u * (1.0 - u)
        dz_a = dh * (1.0 - u)
        grads[0] += _outer_sum(dz_u, x_t)
        grads[1] += _outer_sum(dz_u, h_prev)
        grads[2] += dz_u.reshape(-1, dz_u.shape[-1]).sum(axis=0)
        grads[3] += _outer_sum(dz_a, x_t)
        grads[4] += _outer_sum(dz_a, h_prev)
        grads[5] += dz_a.reshape(-1, dz_a.shape[-1]).sum(axis=0)
        dh = u * dh + dz_u @ W_uh + dz_a @ W_ah
    return (dh, *grads)
