"""The k largest values themselves, not their indices."""

import numpy as np

HINT = (
    "You return the k largest values; the exercise asks for their positions in the row. "
    "Keep the indices that order the row, not the values they point to."
)


def top_k_indices(x, k):
    descending = ~x if np.issubdtype(x.dtype, np.integer) else -x
    order = np.argsort(descending, axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, order, axis=-1)
