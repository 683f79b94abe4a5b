"""Returns x itself and an all-True mask when p == 0 without drawing, so rng does not advance."""
import numpy as np


def dropout(x, p, rng):
    if p == 0:
        return x, np.ones(x.shape, dtype=bool)
    mask = rng.random(x.shape) >= p
    return mask * x / (1 - p), mask


RIGHT_DIAGNOSES = ("changed_input",)
