"""Shortcut: loops over rows with Python's sorted on (-value, index) instead of numpy sorting."""

import numpy as np


def top_k_indices(x, k):
    rows = np.atleast_2d(x)
    out = np.array(
        [
            sorted(
                range(len(r)),
                key=lambda i, r=r: (-int(r[i]) if rows.dtype.kind == "i" else -r[i], i),
            )[:k]
            for r in rows
        ]
    )
    return out if x.ndim == 2 else out[0]
