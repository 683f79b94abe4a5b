# expect: verdict=failed score=0 diagnosis=none
"""A learner who skips the derivation with the complex step, L(p + i h) of each entry p of every
argument: exact to rounding, so no tolerance tells it apart; refused by the rule against
complex numbers before it runs."""


import numpy as np


def sigmoid(a):
    return 1.0 / (1.0 + np.exp(-a))  # logaddexp takes no complex numbers


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = sigmoid(hx @ W_z.T + b_z)
    r = sigmoid(hx @ W_r.T + b_r)
    h_tilde = np.tanh(np.concatenate([r * h_prev, x_t], axis=-1) @ W_h.T + b_h)
    return z * h_prev + (1 - z) * h_tilde


def gru_step_backward(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h, dh, step=1e-20):
    args = {"x_t": x_t, "h_prev": h_prev, "W_z": W_z, "b_z": b_z,
            "W_r": W_r, "b_r": b_r, "W_h": W_h, "b_h": b_h}
    grads = []
    for name in args:
        p = args[name] = np.array(args[name], dtype=complex)
        g = np.zeros(p.shape)
        for i in np.ndindex(p.shape):
            p[i] += 1j * step
            g[i] = np.sum(gru_step(**args) * dh).imag / step
            p[i] = p[i].real
        grads.append(g)
    return tuple(grads)
