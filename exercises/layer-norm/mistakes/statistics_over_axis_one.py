"""The statistics taken along axis 1, right for a matrix only."""

import numpy as np

HINT = (
    "Your output is right for a matrix of vectors but not for other shapes: the mean and "
    "variance are taken along axis 1, which is the last axis only of a 2-d array (a single "
    "vector has no axis 1; in a 3-d array it is the middle one). Normalise along the last "
    "axis (axis=-1) whatever the number of axes."
)


def layer_norm(x, gamma, beta, eps):
    centred = x - x.mean(axis=1, keepdims=True)
    variance = np.mean(centred * centred, axis=1, keepdims=True)
    return gamma * (centred / np.sqrt(variance + eps)) + beta
