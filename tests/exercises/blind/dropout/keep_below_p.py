"""Keeps an element when its draw is below p: keeps with probability p instead of dropping."""

import numpy as np

RIGHT_DIAGNOSES = ("kept_below_p",)


def dropout(x, p, rng):
    mask = rng.random(x.shape) < p
    return np.where(mask, x / (1 - p), 0.0), mask
