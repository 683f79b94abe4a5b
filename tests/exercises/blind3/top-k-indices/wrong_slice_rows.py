"""Top-k that keeps the first k rows of the sorted array ([:k]) instead of the first k columns."""
import numpy as np


def top_k_indices(x, k):
    key = ~x if np.issubdtype(x.dtype, np.integer) else -x
    return np.argsort(key, axis=-1, kind="stable")[:k]


RIGHT_DIAGNOSES = ("first_axis_slice",)
