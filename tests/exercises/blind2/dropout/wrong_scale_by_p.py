"""Divides the kept elements by p (the drop probability) instead of by 1 - p."""
import numpy as np


def dropout(x, p, rng):
    mask = rng.random(x.shape) >= p
    scale = 1.0 / p if p > 0 else 1.0
    out = np.where(mask, x * scale, 0.0)
    return out, mask


RIGHT_DIAGNOSES = ("scaled_by_drop_probability",)
