"""Dropout with np.divide(..., where=mask) into a zero array."""
import numpy as np


def dropout(x, p, rng):
    keep = np.greater_equal(rng.random(x.shape), p)
    out = np.zeros(x.shape, dtype=np.float64)
    np.divide(x, 1.0 - p, out=out, where=keep)
    return out, keep
