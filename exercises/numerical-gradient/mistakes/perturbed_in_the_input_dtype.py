"""The copy of x kept in x's own dtype: for integers x + h is rounded back to x, and the
gradient is 0."""

import numpy as np

HINT = ("For an integer x your gradient is 0 (or an integer array): you copy x in its own "
        "dtype, so x[i] + h is rounded back to x[i] and f sees the same point twice. Copy x as "
        "float64 (np.array(x, dtype=np.float64)) and build the gradient in float64.")


def numerical_gradient(f, x, h=1e-5):
    point = np.array(x)
    grad = np.zeros_like(point)
    for index in np.ndindex(point.shape):
        kept = point[index]
        point[index] = kept + h
        above = f(point)
        point[index] = kept - h
        below = f(point)
        point[index] = kept
        grad[index] = (above - below) / (2 * h)
    return grad
