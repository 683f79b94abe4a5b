"""Sorts -x with argsort's default (unstable) kind, so ties may come out in any order."""
import numpy as np


def top_k_indices(x, k):
    key = -x if np.issubdtype(x.dtype, np.floating) else ~x
    return np.argsort(key, axis=-1)[..., :k]


RIGHT_DIAGNOSES = ("unstable_order",)
