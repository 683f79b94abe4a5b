"""np.argpartition alone: the right k indices, in no particular order."""

import numpy as np

HINT = ("You have the right k indices but not in order: np.argpartition only guarantees that "
        "the k largest come before the others, not how they are ordered among themselves. "
        "Sort the k you found by decreasing value (ties: the smaller index first).")


def top_k_indices(x, k):
    return np.argpartition(-x, k - 1, axis=-1)[..., :k]
