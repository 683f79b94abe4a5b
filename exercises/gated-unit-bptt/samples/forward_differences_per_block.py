# expect: verdict=failed score=0 diagnosis=none
"""A learner who writes backpropagation through time but takes each step's gate derivatives by
forward differences, a whole block of units at a time (within a step the units' nonlinearities
are decoupled: one forward pass gives a block): as fast as the reference, right to about
1e-7, short of the tolerance (rtol=1e-11) of every case but the wide one."""

import numpy as np


def sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit_bptt(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a, y, step=1.5e-8):
    T = x.shape[-2]
    h = np.asarray(h0, dtype=float)
    steps = []
    for t in range(T):
        x_t = x[..., t, :]
        z_u = x_t @ W_ux.T + h @ W_uh.T + b_u
        z_a = x_t @ W_ax.T + h @ W_ah.T + b_a
        u, a = sigmoid(z_u), np.tanh(z_a)
        du = (sigmoid(z_u + step) - u) / step
        da = (np.tanh(z_a + step) - a) / step
        steps.append((x_t, h, u, a, du, da))
        h = u * h + (1.0 - u) * a
        steps[-1] += (h,)

    def outer_sum(g, v):
        return g.reshape(-1, g.shape[-1]).T @ v.reshape(-1, v.shape[-1])

    grads = [np.zeros_like(W) for W in (W_ux, W_uh, b_u, W_ax, W_ah, b_a)]
    dh = np.zeros_like(h)
    for t in range(T - 1, -1, -1):
        x_t, h_prev, u, a, du, da, h_t = steps[t]
        dh = dh + (h_t - y[..., t, :])
        dz_u = dh * (h_prev - a) * du
        dz_a = dh * (1.0 - u) * da
        for k, (g, v) in enumerate([(dz_u, x_t), (dz_u, h_prev), (dz_a, x_t), (dz_a, h_prev)]):
            grads[(0, 1, 3, 4)[k]] += outer_sum(g, v)
        grads[2] += dz_u.reshape(-1, dz_u.shape[-1]).sum(axis=0)
        grads[5] += dz_a.reshape(-1, dz_a.shape[-1]).sum(axis=0)
        dh = u * dh + dz_u @ W_uh + dz_a @ W_ah
    return (dh, *grads)
