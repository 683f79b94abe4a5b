"""Top-k with np.argpartition only: the right k indices per row but not sorted by value."""
import numpy as np


def top_k_indices(x, k):
    m = x.shape[-1]
    return np.argpartition(x, m - k, axis=-1)[..., m - k:]


RIGHT_DIAGNOSES = ("partitioned_at_minus_k_not_sorted",)
