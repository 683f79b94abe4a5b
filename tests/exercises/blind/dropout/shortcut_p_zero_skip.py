"""Shortcut: skips drawing when p == 0 (nothing can be dropped), so the generator is not advanced."""

import numpy as np

RIGHT_DIAGNOSES = ("changed_input",)


def dropout(x, p, rng):
    if p == 0:
        return x.copy(), np.ones(x.shape, dtype=bool)
    mask = rng.random(x.shape) >= p
    return x * mask / (1 - p), mask
