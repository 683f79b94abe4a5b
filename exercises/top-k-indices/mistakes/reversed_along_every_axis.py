"""An ascending stable order reversed along every axis, not only the last: a batch's rows come
out in reverse order (and equal values larger index first)."""

import numpy as np

HINT = (
    "Your rows come out in reverse order: the first row of the result holds the indices of "
    "the last row of x. The ascending order was reversed along every axis, the batch axis "
    "too, not only along the last one (which also puts equal values larger index first). "
    "Order each row on its own, along axis -1, and keep equal values in index order (a "
    "stable sort of -x, of ~x for integers)."
)


def top_k_indices(x, k):
    ascending = np.argsort(x, axis=-1, kind="stable")
    return ascending[tuple(slice(None, None, -1) for _ in range(ascending.ndim))][..., :k]
