"""Casts integers to float64 before negating, so int64 values beyond 2**53 collide and break ties wrongly."""
import numpy as np


def top_k_indices(x, k):
    key = -np.asarray(x, dtype=np.float64)
    return np.argsort(key, axis=-1, kind="stable")[..., :k]


RIGHT_DIAGNOSES = ("integers_as_floats",)
