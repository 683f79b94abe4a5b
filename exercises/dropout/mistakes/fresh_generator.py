"""A generator of its own (a fixed seed) instead of the one passed in."""

import numpy as np

HINT = ("Your mask does not follow from the generator passed as rng. Draw from rng itself, "
        "once, with rng.random(x.shape): a generator of your own (np.random.default_rng, "
        "np.random.rand) gives other draws, and the caller can no longer reproduce or vary "
        "the mask by seeding rng.")


def dropout(x, p, rng):
    mask = np.random.default_rng(0).random(x.shape) >= p
    return x * mask / (1 - p), mask
