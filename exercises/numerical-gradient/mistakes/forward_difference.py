"""A forward difference, (f(x + h e_i) - f(x)) / h, instead of the centred one."""

import numpy as np

HINT = ("You take a forward difference, (f(x + h e_i) - f(x)) / h. Its error is about h times "
        "half the second derivative, so it is off wherever f curves (a relative error near 1e-5 "
        "on a steep exponential). The statement's centred difference, (f(x + h e_i) - "
        "f(x - h e_i)) / (2h), cancels that term and is off by about h squared.")


def numerical_gradient(f, x, h=1e-5):
    point = np.array(x, dtype=np.float64)
    grad = np.zeros_like(point)
    here = f(point)
    for index in np.ndindex(point.shape):
        kept = point[index]
        point[index] = kept + h
        grad[index] = (f(point) - here) / h
        point[index] = kept
    return grad
