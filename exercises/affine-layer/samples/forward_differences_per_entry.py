# expect: verdict=timeout score=1 diagnosis=none
"""A learner who skips the derivation: the backward pass by forward differences of
L = sum(out * dout) at the step sqrt(eps) = 1.5e-8, one forward pass per entry of x, w and b.
Off by about 1e-7 (past the default tolerance) on the public scenario 'four examples', and the
hidden scenario 'large layer' (262400 entries) cannot finish within the submission's limit."""


import numpy as np


def affine_forward(x, w, b):
    return x @ w + b, (x, w, b)


def affine_backward(dout, cache, eps=1.5e-8):
    args = [np.array(a, dtype=float) for a in cache]  # copies: the cache stays as given
    base = np.sum(affine_forward(*args)[0] * dout)
    grads = []
    for p in args:
        g = np.zeros_like(p)
        for i in np.ndindex(p.shape):
            old = p[i]
            p[i] = old + eps
            up = np.sum(affine_forward(*args)[0] * dout)
            p[i] = old
            g[i] = (up - base) / eps
        grads.append(g)
    return tuple(grads)
