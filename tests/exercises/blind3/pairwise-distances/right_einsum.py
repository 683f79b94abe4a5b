"""Pairwise distances from broadcast differences contracted with np.einsum."""
import numpy as np


def pairwise_distances(X, Y):
    diff = X[:, np.newaxis, :] - Y[np.newaxis, :, :]
    return np.sqrt(np.einsum("ijk,ijk->ij", diff, diff))
