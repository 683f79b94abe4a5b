"""Each element moved to x - h and left there: later elements are differentiated at a point
that is no longer x."""

import numpy as np

HINT = ("After an element's two evaluations you leave it at x - h instead of putting it back, "
        "so every later element's difference is taken at a point that is no longer x. Save "
        "the element's value before moving it and assign that value back after the second "
        "call of f.")


def numerical_gradient(f, x, h=1e-5):
    point = np.array(x, dtype=np.float64)
    grad = np.zeros_like(point)
    for index in np.ndindex(point.shape):
        kept = point[index]
        point[index] = kept + h
        above = f(point)
        point[index] = kept - h
        below = f(point)
        grad[index] = (above - below) / (2 * h)
    return grad
