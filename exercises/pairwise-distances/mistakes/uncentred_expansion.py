"""The expansion of the points as given: clipped, but the points are far from the origin."""

import numpy as np

HINT = ("Your distances are wrong by 1e-4 or so between close points that lie far from "
        "the origin. There |x|^2 and 2 x.y are huge and nearly equal, and their difference "
        "keeps only a few correct digits. Distances do not change when every point moves by "
        "the same vector: subtract one centre (the mean of X, say) from X and Y first.")


def pairwise_distances(X, Y):
    squared = (X**2).sum(axis=1)[:, None] - 2.0 * X @ Y.T + (Y**2).sum(axis=1)[None, :]
    return np.sqrt(np.maximum(squared, 0.0))
