"""np.argpartition alone: the right k indices, in no particular order."""

import numpy as np

HINT = ("Your indices are not in the required order: the largest value first, and of equal "
        "values the smaller index first. Sort by decreasing value with a stable sort, which "
        "keeps equal values in index order, and keep the first k.")


def top_k_indices(x, k):
    return np.argpartition(-x, k - 1, axis=-1)[..., :k]
