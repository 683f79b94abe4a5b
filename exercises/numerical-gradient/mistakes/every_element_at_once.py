"""Every element moved at once, x + h and x - h: one directional derivative, copied into every
element."""

import numpy as np

HINT = ("Every element of your result is the same number: you move all of x at once, f(x + h) "
        "- f(x - h), which is the derivative along the direction (1, 1, ..., 1), the sum of "
        "the gradient's elements. Move one element at a time (x + h e_i, where e_i is 1 at "
        "element i only) and call f twice per element.")


def numerical_gradient(f, x, h=1e-5):
    point = np.asarray(x, dtype=np.float64)
    slope = (f(point + h) - f(point - h)) / (2 * h)
    return np.full(point.shape, slope)
