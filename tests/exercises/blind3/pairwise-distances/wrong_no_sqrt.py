"""Returns the squared distances: forgets the square root."""
import numpy as np


def pairwise_distances(X, Y):
    diff = X[:, None, :] - Y[None, :, :]
    return np.sum(diff**2, axis=-1)


RIGHT_DIAGNOSES = ("squared_distances",)
