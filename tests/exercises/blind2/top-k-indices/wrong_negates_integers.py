"""Negates integers with -x, so the most negative value of the dtype negates to itself and ranks first."""
import numpy as np


def top_k_indices(x, k):
    return np.argsort(-x, axis=-1, kind="stable")[..., :k]


RIGHT_DIAGNOSES = ("negation_overflows",)
