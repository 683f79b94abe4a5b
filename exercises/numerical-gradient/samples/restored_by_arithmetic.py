# expect: verdict=failed score=0 diagnosis=none
"""A learner who works on x itself and puts each element back by adding h again: the values
are right, but x + h - 2h + h is not always x in floating point, so the caller's x comes back
changed in its last digits."""

import numpy as np


def numerical_gradient(f, x, h=1e-5):
    grad = np.zeros(np.shape(x))
    for index in np.ndindex(np.shape(x)):
        x[index] += h
        plus = f(x)
        x[index] -= 2 * h
        minus = f(x)
        x[index] += h
        grad[index] = (plus - minus) / (2 * h)
    return grad
