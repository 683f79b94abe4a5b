"""Dropout that keeps an element when its draw is below 1 - p (right share, wrong elements)."""
import numpy as np


def dropout(x, p, rng):
    u = rng.random(x.shape)
    mask = u < 1 - p
    out = np.where(mask, x / (1 - p), 0.0)
    return out, mask


RIGHT_DIAGNOSES = ("kept_below_one_minus_p",)
