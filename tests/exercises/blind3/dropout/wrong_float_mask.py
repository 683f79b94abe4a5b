"""Dropout that returns the mask as 0.0 / 1.0 floats instead of booleans."""
import numpy as np


def dropout(x, p, rng):
    mask = (rng.random(x.shape) >= p).astype(np.float64)
    out = x * mask / (1 - p)
    return out, mask


RIGHT_DIAGNOSES = ("wrong_dtype",)
