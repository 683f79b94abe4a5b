"""Right: squared distances by the expansion |x|^2 - 2 x.c + |c|^2 (exact on the statement's halfway points, which are exact in floating point)."""
import numpy as np


def init_centres(x, k, rng):
    rows = rng.choice(x.shape[0], size=k, replace=False)
    return x[rows]


def kmeans_step(x, centres):
    d2 = (x ** 2).sum(axis=1)[:, None] - 2 * x @ centres.T + (centres ** 2).sum(axis=1)[None, :]
    labels = np.argmin(d2, axis=1)
    new = centres.copy()
    for j in range(len(centres)):
        if np.any(labels == j):
            new[j] = x[labels == j].mean(axis=0)
    return new, labels
