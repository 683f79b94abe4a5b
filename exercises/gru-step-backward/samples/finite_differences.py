# expect: verdict=timeout score=0 diagnosis=none
"""A learner who skips the derivation: central differences of L = sum(h_t * dh), entry by entry.

Right to about 1e-9 on the small cases, short of their tolerance (rtol=1e-11), and two forward
steps per entry of every argument: on the hidden test 'wide layer' (74112 parameters) they
cannot finish within its limit of 1 s."""

import numpy as np


def sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = sigmoid(hx @ W_z.T + b_z)
    r = sigmoid(hx @ W_r.T + b_r)
    h_tilde = np.tanh(np.concatenate([r * h_prev, x_t], axis=-1) @ W_h.T + b_h)
    return z * h_prev + (1 - z) * h_tilde


def gru_step_backward(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h, dh, eps=1e-6):
    args = {"x_t": x_t, "h_prev": h_prev, "W_z": W_z, "b_z": b_z,
            "W_r": W_r, "b_r": b_r, "W_h": W_h, "b_h": b_h}
    grads = []
    for name in args:
        p = args[name] = np.array(args[name], dtype=float)  # a copy: the inputs stay as given
        g = np.zeros_like(p)
        for i in np.ndindex(p.shape):
            old = p[i]
            p[i] = old + eps
            up = np.sum(gru_step(**args) * dh)
            p[i] = old - eps
            down = np.sum(gru_step(**args) * dh)
            p[i] = old
            g[i] = (up - down) / (2 * eps)
        grads.append(g)
    return tuple(grads)
