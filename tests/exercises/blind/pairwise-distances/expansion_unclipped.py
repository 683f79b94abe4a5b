"""Uses the norm expansion without clipping, so a rounded negative square gives NaN."""

import numpy as np

RIGHT_DIAGNOSES = ("not_clipped",)


def pairwise_distances(X, Y):
    sq = (X**2).sum(axis=1)[:, None] - 2.0 * X @ Y.T + (Y**2).sum(axis=1)[None, :]
    return np.sqrt(sq)
