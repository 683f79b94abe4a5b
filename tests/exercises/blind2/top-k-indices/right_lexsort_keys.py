"""Correct: per row, np.lexsort on (index, minus the dense rank of each value from np.unique)."""
import numpy as np


def top_k_indices(x, k):
    arr = np.asarray(x)
    flat = arr.reshape(-1, arr.shape[-1])
    idx = np.arange(flat.shape[1])
    rows = []
    for row in flat:
        dense_rank = np.unique(row, return_inverse=True)[1].reshape(-1)
        rows.append(np.lexsort((idx, -dense_rank))[:k])
    return np.array(rows, dtype=np.int64).reshape(*arr.shape[:-1], k)
