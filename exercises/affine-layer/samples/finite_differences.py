# expect: verdict=timeout score=2 diagnosis=none
"""A learner who skips the derivation: the backward pass by central differences of
L = sum(out * dout), two forward passes per entry of x, w and b. The hidden scenario
'large layer' (262400 entries) cannot finish within the submission's limit."""

import numpy as np


def affine_forward(x, w, b):
    return x @ w + b, (x, w, b)


def affine_backward(dout, cache, eps=1e-6):
    args = [np.array(a, dtype=float) for a in cache]  # copies: the cache stays as given
    grads = []
    for p in args:
        g = np.zeros_like(p)
        for i in np.ndindex(p.shape):
            old = p[i]
            p[i] = old + eps
            up = np.sum(affine_forward(*args)[0] * dout)
            p[i] = old - eps
            down = np.sum(affine_forward(*args)[0] * dout)
            p[i] = old
            g[i] = (up - down) / (2 * eps)
        grads.append(g)
    return tuple(grads)
