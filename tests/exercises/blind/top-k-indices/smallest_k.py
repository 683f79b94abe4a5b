"""Returns the indices of the k smallest values (ascending sort, no decreasing transform)."""

import numpy as np

RIGHT_DIAGNOSES = ("smallest_first",)


def top_k_indices(x, k):
    return np.argsort(x, axis=-1, kind="stable")[..., :k]
