"""Returns the mask as 0.0 / 1.0 floats instead of a boolean array."""

import numpy as np

RIGHT_DIAGNOSES = ("wrong_dtype",)


def dropout(x, p, rng):
    mask = (rng.random(x.shape) >= p).astype(np.float64)
    return x * mask / (1.0 - p), mask
