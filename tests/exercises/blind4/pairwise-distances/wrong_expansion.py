"""Mistake: the expansion |x|^2 - 2x.y + |y|^2 (clipped), which loses accuracy for points far from the origin."""
import numpy as np


def pairwise_distances(X, Y):
    sq = (X**2).sum(axis=1)[:, None] - 2 * X @ Y.T + (Y**2).sum(axis=1)[None, :]
    return np.sqrt(np.maximum(sq, 0.0))


RIGHT_DIAGNOSES = ("uncentred_expansion",)
