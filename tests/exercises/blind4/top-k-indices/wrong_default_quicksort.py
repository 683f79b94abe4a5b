"""Mistake: argsort of -x with the default (unstable) quicksort, so ties may come out of index order."""
import numpy as np


def top_k_indices(x, k):
    t = ~x if np.issubdtype(x.dtype, np.integer) else -x
    return np.argsort(t, axis=-1)[..., :k]


RIGHT_DIAGNOSES = ("unstable_order",)
