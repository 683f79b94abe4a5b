"""Sums the squared differences over axis 1 (the points of Y) instead of the coordinates axis 2."""
import numpy as np


def pairwise_distances(X, Y):
    diff = X[:, np.newaxis, :] - Y[np.newaxis, :, :]
    return np.sqrt(np.sum(diff**2, axis=1))

RIGHT_DIAGNOSES = ("summed_over_the_other_points",)
