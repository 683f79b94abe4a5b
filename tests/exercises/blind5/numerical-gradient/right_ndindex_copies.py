"""Right: python loop over np.ndindex, making two fresh float64 copies of x per element (one moved by +h, one by -h), so nothing ever needs restoring."""
import numpy as np


def numerical_gradient(f, x, h=1e-5):
    base = np.array(x, dtype=float)
    g = np.zeros_like(base)
    for idx in np.ndindex(*base.shape):
        plus = base.copy()
        minus = base.copy()
        plus[idx] += h
        minus[idx] -= h
        g[idx] = (f(plus) - f(minus)) / (2 * h)
    return g
