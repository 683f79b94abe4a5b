# expect: verdict=timeout score=2 diagnosis=none
"""A learner who takes dx by central differences a column of x at a time (the rows are decoupled:
perturbing input j of every row at once gives column j of dx from two forward passes) and dw
and db entry by entry: right to about 1e-10 on the public scenarios, but the weights of the
hidden scenario 'large layer' (131072 entries) still need two forward passes each."""

import numpy as np


def affine_forward(x, w, b):
    return x @ w + b, (x, w, b)


def affine_backward(dout, cache, step=6e-6):
    x, w, b = (np.array(a, dtype=float) for a in cache)  # copies: the cache stays as given

    def row_losses(x, w, b):
        return np.sum(affine_forward(x, w, b)[0] * dout, axis=-1)

    dx = np.zeros_like(x)
    for j in range(x.shape[1]):
        up, down = x.copy(), x.copy()
        up[:, j] += step
        down[:, j] -= step
        dx[:, j] = (row_losses(up, w, b) - row_losses(down, w, b)) / (2 * step)
    grads = []
    for p in (w, b):
        g = np.zeros_like(p)
        for i in np.ndindex(p.shape):
            old = p[i]
            p[i] = old + step
            up = np.sum(row_losses(x, w, b))
            p[i] = old - step
            down = np.sum(row_losses(x, w, b))
            p[i] = old
            g[i] = (up - down) / (2 * step)
        grads.append(g)
    return (dx, *grads)
