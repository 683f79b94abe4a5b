"""Reference: Euclidean distances from the expansion |x|^2 - 2 x.y + |y|^2 of centred points.

Distances do not change when every point moves by one vector, so both sets are first moved by
the mean of X: the expansion then cancels between numbers of the size of the spread, not of
the distance to the origin. Rounding may still leave a tiny negative square for two equal
points; it is clipped to zero before the square root.
"""

import numpy as np


def pairwise_distances(X, Y):
    """D[i, j] = ||X[i] - Y[j]|| for X of shape (n, d) and Y of shape (m, d)."""
    center = X.mean(axis=0)
    Xc = X - center
    Yc = Y - center
    squared = (Xc**2).sum(axis=1)[:, None] - 2.0 * (Xc @ Yc.T) + (Yc**2).sum(axis=1)[None, :]
    return np.sqrt(np.maximum(squared, 0.0))
