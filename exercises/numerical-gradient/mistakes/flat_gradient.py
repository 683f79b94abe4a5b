"""The gradient returned flat, of shape (x.size,), whatever x's shape."""

import numpy as np

HINT = ("Your gradient is flat: shape (x.size,) where x has more than one axis (or none). Its "
        "values are right, but the statement asks for x's own shape, so that grad[i, j] is "
        "the derivative along x[i, j]. Build it with np.zeros_like on a float64 copy of x, or "
        "reshape it to x.shape before returning.")


def numerical_gradient(f, x, h=1e-5):
    point = np.array(x, dtype=np.float64)
    flat = point.reshape(-1)
    grad = np.zeros(flat.size)
    for i in range(flat.size):
        kept = flat[i]
        flat[i] = kept + h
        above = f(point)
        flat[i] = kept - h
        below = f(point)
        flat[i] = kept
        grad[i] = (above - below) / (2 * h)
    return grad
