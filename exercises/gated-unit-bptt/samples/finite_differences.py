# expect: verdict=timeout score=0 diagnosis=none
"""A learner who skips the derivation: central differences of the loss, entry by entry.

They are right to about 1e-8 on the small cases, short of their tolerance (rtol=1e-11), and
need two forward passes per entry of
h0 and of every parameter: on the hidden test 'wide and long' (tens of thousands of entries,
a hundred steps) they cannot finish within its limit, while the exact gradients take
milliseconds."""

import numpy as np


def sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def loss(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a, y):
    h, total = h0, 0.0
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1 - u) * a
        total += 0.5 * np.sum((h - y[..., t, :]) ** 2)
    return total


def gated_unit_bptt(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a, y, eps=1e-6):
    args = {"x": x, "h0": h0, "W_ux": W_ux, "W_uh": W_uh, "b_u": b_u,
            "W_ax": W_ax, "W_ah": W_ah, "b_a": b_a, "y": y}
    grads = []
    for name in ["h0", "W_ux", "W_uh", "b_u", "W_ax", "W_ah", "b_a"]:
        p = args[name] = np.array(args[name], dtype=float)  # a copy: the inputs stay as given
        g = np.zeros_like(p)
        for i in np.ndindex(p.shape):
            old = p[i]
            p[i] = old + eps
            up = loss(**args)
            p[i] = old - eps
            down = loss(**args)
            p[i] = old
            g[i] = (up - down) / (2 * eps)
        grads.append(g)
    return tuple(grads)
