"""Sums absolute differences (the Manhattan distance) and takes the root of that."""

import numpy as np

RIGHT_DIAGNOSES = ("absolute_differences_under_the_root",)


def pairwise_distances(X, Y):
    return np.sqrt(np.abs(X[:, None, :] - Y[None, :, :]).sum(axis=-1))
