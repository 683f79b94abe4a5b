"""Correct: ranks each element by counting larger values and equal values at smaller index."""

import numpy as np


def top_k_indices(x, k):
    rows = np.atleast_2d(x)
    m = rows.shape[-1]
    a = rows[..., :, None]
    b = rows[..., None, :]
    j = np.arange(m)
    earlier = j[None, :] < j[:, None]
    rank = (b > a).sum(axis=-1) + ((b == a) & earlier).sum(axis=-1)
    out = np.argsort(rank, axis=-1, kind="stable")[..., :k]
    return out if x.ndim == 2 else out[0]
