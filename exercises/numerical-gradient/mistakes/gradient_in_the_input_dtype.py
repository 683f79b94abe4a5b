"""The point moved in float64, but the gradient stored in an array of x's dtype: for integers
each partial derivative is cut to an integer."""

import numpy as np

HINT = ("For an integer x your gradient is an integer array: you make it like x "
        "(np.zeros_like(x)), so each partial derivative is cut to an integer as it is stored. "
        "Build the gradient in float64 (np.zeros(x.shape)).")


def numerical_gradient(f, x, h=1e-5):
    point = np.array(x, dtype=np.float64)
    grad = np.zeros_like(x)
    for index in np.ndindex(point.shape):
        kept = point[index]
        point[index] = kept + h
        above = f(point)
        point[index] = kept - h
        below = f(point)
        point[index] = kept
        grad[index] = (above - below) / (2 * h)
    return grad
