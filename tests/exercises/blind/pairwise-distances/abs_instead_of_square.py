"""Sums absolute differences (the Manhattan distance) and takes the root of that."""

import numpy as np


def pairwise_distances(X, Y):
    return np.sqrt(np.abs(X[:, None, :] - Y[None, :, :]).sum(axis=-1))
