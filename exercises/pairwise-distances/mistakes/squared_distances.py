"""The squared distances returned, without the square root."""

import numpy as np

HINT = ("Your values are the squares of the distances: take the square root at the end.")


def pairwise_distances(X, Y):
    center = X.mean(axis=0)
    Xc, Yc = X - center, Y - center
    squared = (Xc**2).sum(axis=1)[:, None] - 2.0 * Xc @ Yc.T + (Yc**2).sum(axis=1)[None, :]
    return np.maximum(squared, 0.0)
