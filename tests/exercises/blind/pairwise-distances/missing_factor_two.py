"""Writes the expansion as |x|^2 - x.y + |y|^2, forgetting the factor 2 of the cross term."""

import numpy as np

RIGHT_DIAGNOSES = ("cross_term_not_doubled",)


def pairwise_distances(X, Y):
    c = X.mean(axis=0)
    Xc, Yc = X - c, Y - c
    sq = (Xc**2).sum(1)[:, None] - Xc @ Yc.T + (Yc**2).sum(1)[None, :]
    return np.sqrt(np.maximum(sq, 0.0))
