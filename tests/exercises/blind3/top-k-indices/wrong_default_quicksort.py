"""Top-k with np.argsort(~x / -x) using the default quicksort, which is not stable for long rows with ties."""
import numpy as np


def top_k_indices(x, k):
    key = ~x if np.issubdtype(x.dtype, np.integer) else -x
    return np.argsort(key, axis=-1)[..., :k]


RIGHT_DIAGNOSES = ("unstable_order",)
