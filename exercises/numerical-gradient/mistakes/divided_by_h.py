"""The centred difference divided by h instead of 2h: twice the gradient."""

import numpy as np

HINT = ("Your values are twice the gradient: you divide the centred difference f(x + h e_i) - "
        "f(x - h e_i) by h, but the two points are 2h apart. Divide by 2 * h.")


def numerical_gradient(f, x, h=1e-5):
    point = np.array(x, dtype=np.float64)
    grad = np.zeros_like(point)
    for index in np.ndindex(point.shape):
        kept = point[index]
        point[index] = kept + h
        above = f(point)
        point[index] = kept - h
        below = f(point)
        point[index] = kept
        grad[index] = (above - below) / h
    return grad
