# expect: verdict=passed score=25 diagnosis=none
"""Another correct method: np.lexsort orders each row by decreasing value and, for equal
values, by increasing index (the last key is the primary one), with no reliance on a stable
sort. (np.argpartition alone would not do: at the cut it may keep either of two equal values.)
It sorts ascending, ties by decreasing index, and reads the order backwards: no negated value
to overflow on the most negative integer."""

import numpy as np


def top_k_indices(x, k):
    x = np.asarray(x)
    rows = x.reshape(-1, x.shape[-1])
    positions = np.arange(rows.shape[-1])
    result = np.stack([np.lexsort((-positions, row))[::-1][:k] for row in rows])
    return result.reshape(*x.shape[:-1], k)
