"""Casts the points to float32 for a faster matrix product, then computes the centred expansion."""

import numpy as np

RIGHT_DIAGNOSES = ("single_precision",)


def pairwise_distances(X, Y):
    X32, Y32 = X.astype(np.float32), Y.astype(np.float32)
    c = X32.mean(axis=0)
    Xc, Yc = X32 - c, Y32 - c
    sq = (Xc**2).sum(1)[:, None] - 2 * Xc @ Yc.T + (Yc**2).sum(1)[None, :]
    return np.sqrt(np.maximum(sq, 0)).astype(np.float64)
