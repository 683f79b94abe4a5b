"""Broadcast differences summed over axis 1 (the points of Y) instead of the coordinates."""
import numpy as np


def pairwise_distances(X, Y):
    diff = X[:, np.newaxis, :] - Y[np.newaxis, :, :]
    return np.sqrt((diff**2).sum(axis=1))


RIGHT_DIAGNOSES = ("summed_over_the_other_points",)
