"""Broadcasts the differences but sums over the points of Y (axis 1) instead of the coordinates."""

import numpy as np

RIGHT_DIAGNOSES = ("summed_over_the_other_points",)


def pairwise_distances(X, Y):
    diff = X[:, None, :] - Y[None, :, :]
    return np.sqrt((diff**2).sum(axis=1))
