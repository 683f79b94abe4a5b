"""Right: builds all one-hot tensors at once as np.eye(n).reshape((n,) + shape) and evaluates f(x + h*E[k]) and f(x - h*E[k]) without ever mutating an array."""
import numpy as np


def numerical_gradient(f, x, h=1e-5):
    x0 = np.asarray(x, dtype=np.float64)
    n = x0.size
    basis = np.eye(n, dtype=np.float64).reshape((n,) + x0.shape)
    diffs = np.array([f(x0 + h * basis[k]) - f(x0 - h * basis[k]) for k in range(n)],
                     dtype=np.float64)
    return (diffs / (2 * h)).reshape(x0.shape)
