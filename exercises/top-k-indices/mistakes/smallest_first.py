"""The k smallest, smallest first: an ascending order kept from its start."""

import numpy as np

HINT = (
    "You return the positions of the k smallest values, smallest first: the statement asks "
    "for the k largest, the largest first. Order the row by decreasing value (sort a "
    "decreasing transform of it, such as -x, or ~x for integers) before keeping the first "
    "k."
)


def top_k_indices(x, k):
    return np.argsort(x, axis=-1, kind="stable")[..., :k]
