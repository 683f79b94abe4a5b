"""Pairwise distances by the expansion, clipped at zero, but still inaccurate for close points far from the origin."""
import numpy as np


def pairwise_distances(X, Y):
    sq = (X**2).sum(1)[:, np.newaxis] + (Y**2).sum(1)[np.newaxis, :] - 2.0 * X.dot(Y.T)
    return np.sqrt(np.maximum(sq, 0.0))


RIGHT_DIAGNOSES = ("uncentred_expansion_cross_term_last",)
