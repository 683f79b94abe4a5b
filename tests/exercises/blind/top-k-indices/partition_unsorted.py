"""Uses argpartition and returns the k largest without sorting them by value."""

import numpy as np


def top_k_indices(x, k):
    part = np.argpartition(-x.astype(np.float64), k - 1, axis=-1)[..., :k]
    return np.sort(part, axis=-1)
