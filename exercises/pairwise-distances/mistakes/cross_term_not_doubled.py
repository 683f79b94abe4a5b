"""|x|^2 - x.y + |y|^2: the cross term of the expansion taken once."""

import numpy as np

HINT = ("Your distances are too large. |x - y|^2 = |x|^2 - 2 x.y + |y|^2: the cross term "
        "appears twice.")


def pairwise_distances(X, Y):
    center = X.mean(axis=0)
    Xc, Yc = X - center, Y - center
    squared = (Xc**2).sum(axis=1)[:, None] - Xc @ Yc.T + (Yc**2).sum(axis=1)[None, :]
    return np.sqrt(np.maximum(squared, 0.0))
