"""The point copied in x's own dtype, the gradient in float64: for integers x + h is rounded
back to x, and the gradient is a float64 array of zeros."""

import numpy as np

HINT = ("For an integer x your gradient is all zeros: you copy x in its own dtype, so "
        "x[i] + h is rounded back to x[i] and f sees the same point twice. Copy x as float64 "
        "(np.array(x, dtype=np.float64)) before you move its elements.")


def numerical_gradient(f, x, h=1e-5):
    point = np.array(x)
    grad = np.zeros(point.shape)
    for index in np.ndindex(point.shape):
        kept = point[index]
        point[index] = kept + h
        above = f(point)
        point[index] = kept - h
        below = f(point)
        point[index] = kept
        grad[index] = (above - below) / (2 * h)
    return grad
