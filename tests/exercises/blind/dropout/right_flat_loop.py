"""Correct: one rng.random call, then an explicit loop over the flattened elements."""

import numpy as np


def dropout(x, p, rng):
    u = rng.random(x.shape).ravel()
    flat = x.ravel()
    out = np.empty(flat.shape, dtype=np.float64)
    mask = np.empty(flat.shape, dtype=bool)
    for i in range(flat.size):
        keep = bool(u[i] >= p)
        mask[i] = keep
        out[i] = flat[i] * keep / (1 - p)
    return out.reshape(x.shape), mask.reshape(x.shape)
