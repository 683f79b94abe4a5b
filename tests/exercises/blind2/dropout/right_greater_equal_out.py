"""Correct: np.greater_equal for the mask, then np.multiply and np.divide into one new array."""
import numpy as np


def dropout(x, p, rng):
    draws = rng.random(np.shape(x))
    keep = np.greater_equal(draws, p)
    out = np.empty(np.shape(x), dtype=np.float64)
    np.multiply(x, keep, out=out)
    np.divide(out, 1.0 - p, out=out)
    return out, keep
