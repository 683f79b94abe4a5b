# expect: verdict=failed score=0 diagnosis=none
"""A learner who skips the derivation with the complex step, L(p + i h) of each entry p of x, w
and b: exact to rounding (the layer is linear), so no tolerance tells it apart; refused by the
rule against complex numbers before it runs."""


import numpy as np


def affine_forward(x, w, b):
    return x @ w + b, (x, w, b)


def affine_backward(dout, cache, step=1e-20):
    args = [np.array(a, dtype=complex) for a in cache]
    grads = []
    for p in args:
        g = np.zeros(p.shape)
        for i in np.ndindex(p.shape):
            p[i] += 1j * step
            g[i] = np.sum(affine_forward(*args)[0] * dout).imag / step
            p[i] = p[i].real
        grads.append(g)
    return tuple(grads)
