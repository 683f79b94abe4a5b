# expect: verdict=failed score=2 diagnosis=scaling_forgotten
"""A learner who zeroes the dropped elements and stops there."""

import numpy as np


def dropout(x, p, rng):
    u = rng.random(size=x.shape)
    keep = u >= p
    out = np.where(keep, x, 0.0)
    return out, keep
