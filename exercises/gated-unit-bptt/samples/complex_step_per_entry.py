# expect: verdict=failed score=0 diagnosis=none
"""A learner who skips the derivation with the complex step, L(p + i h) of each entry p of h0
and of every parameter: exact to rounding, so no tolerance tells it apart; refused by the rule
against complex numbers before it runs."""


import numpy as np


def sigmoid(q):
    return 1.0 / (1.0 + np.exp(-q))  # logaddexp takes no complex numbers


def loss(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a, y):
    h, total = h0, 0.0
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1 - u) * a
        total += 0.5 * np.sum((h - y[..., t, :]) ** 2)
    return total


def gated_unit_bptt(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a, y, step=1e-20):
    args = {"x": x, "h0": h0, "W_ux": W_ux, "W_uh": W_uh, "b_u": b_u,
            "W_ax": W_ax, "W_ah": W_ah, "b_a": b_a, "y": y}
    grads = []
    for name in ["h0", "W_ux", "W_uh", "b_u", "W_ax", "W_ah", "b_a"]:
        p = args[name] = np.array(args[name], dtype=complex)
        g = np.zeros(p.shape)
        for i in np.ndindex(p.shape):
            p[i] += 1j * step
            g[i] = loss(**args).imag / step
            p[i] = p[i].real
        grads.append(g)
    return tuple(grads)
