"""The expansion in its textbook order, |x|^2 + |y|^2 - 2 x.y, clipped at zero, on points far
from the origin: rounding differs from the other order, the lost digits are the same."""

import numpy as np

HINT = ("Your distances are wrong by 1e-4 or so between close points that lie far from "
        "the origin. There |x|^2 and 2 x.y are huge and nearly equal, and their difference "
        "keeps only a few correct digits. Distances do not change when every point moves by "
        "the same vector: subtract one centre (the mean of X, say) from X and Y first.")


def pairwise_distances(X, Y):
    x_squared = np.sum(X * X, axis=-1)
    y_squared = np.sum(Y * Y, axis=-1)
    squared = x_squared[:, np.newaxis] + y_squared[np.newaxis, :] - 2 * np.dot(X, Y.T)
    return np.sqrt(squared.clip(min=0))
