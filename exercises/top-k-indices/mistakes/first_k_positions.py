"""The index made the primary key of the order: the first k positions, whatever the values."""

import numpy as np

HINT = (
    "You return the first k positions of every row (0, 1, ..., k - 1) whatever its values: "
    "the order was decided by the index, not by the value. The value must decide the order "
    "(largest first), the index only breaks ties between equal values."
)


def top_k_indices(x, k):
    return np.broadcast_to(np.arange(k), (*x.shape[:-1], k)).copy()
