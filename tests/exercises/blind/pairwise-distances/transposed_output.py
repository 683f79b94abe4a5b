"""Builds the table with Y's points as rows: shape (m, n) instead of (n, m)."""

import numpy as np

RIGHT_DIAGNOSES = ("permute_output",)


def pairwise_distances(X, Y):
    diff = Y[:, None, :] - X[None, :, :]
    return np.sqrt((diff * diff).sum(axis=-1))
