"""The root of the summed absolute differences instead of the summed squares."""

import numpy as np

HINT = (
    "Your distances add up the absolute differences of the coordinates before the square "
    "root: the Euclidean distance adds their squares, ||x - y|| = sqrt(sum of (x_k - "
    "y_k)^2)."
)


def pairwise_distances(X, Y):
    return np.sqrt(np.abs(X[:, None, :] - Y[None, :, :]).sum(axis=-1))
