# expect: verdict=failed score=0 diagnosis=none
"""A learner who skips the derivation with the complex step, L(p + i h) of each entry p of every
argument: exact to rounding, so no tolerance tells it apart; refused by the rule against
complex numbers before it runs."""


import numpy as np


def sigmoid(a):
    return 1.0 / (1.0 + np.exp(-a))  # logaddexp takes no complex numbers


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    i, f, o = sigmoid(a[..., :H]), sigmoid(a[..., H:2 * H]), sigmoid(a[..., 3 * H:])
    c_t = f * c_prev + i * np.tanh(a[..., 2 * H:3 * H])
    return o * np.tanh(c_t), c_t


def lstm_step_backward(x_t, h_prev, c_prev, W, b, dh, dc, step=1e-20):
    args = {"x_t": x_t, "h_prev": h_prev, "c_prev": c_prev, "W": W, "b": b}

    def loss():
        h_t, c_t = lstm_step(**args)
        return np.sum(h_t * dh) + np.sum(c_t * dc)

    grads = []
    for name in args:
        p = args[name] = np.array(args[name], dtype=complex)
        g = np.zeros(p.shape)
        for i in np.ndindex(p.shape):
            p[i] += 1j * step
            g[i] = loss().imag / step
            p[i] = p[i].real
        grads.append(g)
    return tuple(grads)
