"""Right: np.lexsort with the index as secondary key, one row at a time via apply_along_axis."""
import numpy as np


def _row(values, k):
    idx = np.arange(values.shape[0])
    key = ~values if np.issubdtype(values.dtype, np.integer) else -values
    return np.lexsort((idx, key))[:k]


def top_k_indices(x, k):
    return np.apply_along_axis(_row, -1, x, k)
