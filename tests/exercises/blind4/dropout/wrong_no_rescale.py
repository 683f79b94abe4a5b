"""Mistake: forgets the inverted-dropout rescaling by 1 / (1 - p)."""
import numpy as np


def dropout(x, p, rng):
    mask = rng.random(x.shape) >= p
    return np.where(mask, x, 0.0), mask


RIGHT_DIAGNOSES = ("scaling_forgotten",)
