"""The right k positions, listed in increasing order of position instead of decreasing value."""

import numpy as np

HINT = (
    "You return the positions of the right k values, but in increasing order of position: "
    "the statement lists them by decreasing value (the largest first, and of equal values "
    "the smaller index first). Order the k positions by their values, not by the positions "
    "themselves."
)


def top_k_indices(x, k):
    descending = ~x if np.issubdtype(x.dtype, np.integer) else -x
    return np.sort(np.argsort(descending, axis=-1, kind="stable")[..., :k], axis=-1)
