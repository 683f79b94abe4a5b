"""Uses the expansion ||x||^2 - 2 x.y + ||y||^2 without clipping at zero: rounding gives NaN for equal points."""
import numpy as np


def pairwise_distances(X, Y):
    xx = np.sum(X**2, axis=1)[:, None]
    yy = np.sum(Y**2, axis=1)[None, :]
    sq = xx - 2 * X @ Y.T + yy
    return np.sqrt(sq)


RIGHT_DIAGNOSES = ("not_clipped",)
