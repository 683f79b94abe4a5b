"""Passes np.lexsort the keys as (value, index), so the index (the last key) becomes primary."""

import numpy as np

RIGHT_DIAGNOSES = ("first_k_positions",)


def top_k_indices(x, k):
    rows = np.atleast_2d(x)
    index = np.broadcast_to(np.arange(rows.shape[-1]), rows.shape)
    order = np.lexsort((-rows.astype(np.float64), index), axis=-1)[..., :k]
    return order if x.ndim == 2 else order[0]
