# expect: verdict=timeout score=0 diagnosis=none
"""A learner who skips the derivation: central differences of L = sum(h_t * dh) + sum(c_t * dc).

Right to about 1e-9 on the small cases, short of their tolerance (rtol=1e-11), and two forward
steps per entry of every argument: on the hidden test 'wide layer' (98816 parameters) they
cannot finish within its limit of 1 s."""

import numpy as np


def sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    i, f, o = sigmoid(a[..., :H]), sigmoid(a[..., H:2 * H]), sigmoid(a[..., 3 * H:])
    c_t = f * c_prev + i * np.tanh(a[..., 2 * H:3 * H])
    return o * np.tanh(c_t), c_t


def lstm_step_backward(x_t, h_prev, c_prev, W, b, dh, dc, eps=1e-6):
    args = {"x_t": x_t, "h_prev": h_prev, "c_prev": c_prev, "W": W, "b": b}

    def loss():
        h_t, c_t = lstm_step(**args)
        return np.sum(h_t * dh) + np.sum(c_t * dc)

    grads = []
    for name in args:
        p = args[name] = np.array(args[name], dtype=float)  # a copy: the inputs stay as given
        g = np.zeros_like(p)
        for i in np.ndindex(p.shape):
            old = p[i]
            p[i] = old + eps
            up = loss()
            p[i] = old - eps
            down = loss()
            p[i] = old
            g[i] = (up - down) / (2 * eps)
        grads.append(g)
    return tuple(grads)
