"""The sum of the absolute differences of the coordinates (the Manhattan, L1 distance)."""

import numpy as np

HINT = (
    "Your distances are sums of the absolute differences of the coordinates: the Manhattan "
    "(L1) distance. The statement asks for the Euclidean one: the square root of the sum of "
    "the squared differences."
)


def pairwise_distances(X, Y):
    return np.sum(np.abs(X[:, np.newaxis] - Y[np.newaxis]), axis=2)
