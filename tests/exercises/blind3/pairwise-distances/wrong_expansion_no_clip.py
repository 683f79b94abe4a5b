"""Pairwise distances by the expansion |x|^2 - 2x.y + |y|^2 without clipping, so rounding gives sqrt of negatives (NaN)."""
import numpy as np


def pairwise_distances(X, Y):
    xx = np.sum(X**2, axis=1)[:, None]
    yy = np.sum(Y**2, axis=1)[None, :]
    return np.sqrt(xx - 2 * X @ Y.T + yy)


RIGHT_DIAGNOSES = ("not_clipped",)
