# expect: verdict=passed score=14 diagnosis=none
"""Another correct method: the draws from rng.uniform (the same numbers as rng.random) and the
output chosen with np.where."""

import numpy as np


def dropout(x, p, rng):
    keep = rng.uniform(size=x.shape) >= p
    return np.where(keep, x / (1.0 - p), 0.0), keep
