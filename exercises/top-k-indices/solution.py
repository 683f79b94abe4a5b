"""Reference solution: the indices of the k largest values of each row, largest first, equal
values in the order of their indices."""

import numpy as np


def top_k_indices(x: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k largest entries along the last axis, in decreasing order of value."""
    # A stable sort of -x keeps equal values in index order; -x is exact for floats and
    # signed integers, the inputs the statement allows.
    return np.argsort(-x, axis=-1, kind="stable")[..., :k]
