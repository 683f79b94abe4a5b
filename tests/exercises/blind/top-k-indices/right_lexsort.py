"""Correct: np.lexsort per row with the index as the secondary key and ~x / -x as primary."""

import numpy as np


def _decreasing(x):
    if np.issubdtype(x.dtype, np.integer):
        return ~x
    return -x


def top_k_indices(x, k):
    rows = np.atleast_2d(x)
    key = _decreasing(rows)
    index = np.broadcast_to(np.arange(rows.shape[-1]), rows.shape)
    order = np.lexsort((index, key), axis=-1)[..., :k]
    return order if x.ndim == 2 else order[0]
