"""Correct: np.where with a precomputed scale, the mask from one rng.random call."""

import numpy as np


def dropout(x, p, rng):
    u = rng.random(x.shape)
    mask = np.greater_equal(u, p)
    scale = 1.0 / (1.0 - p)
    out = np.where(mask, x * scale, x * 0.0)
    return out, mask
