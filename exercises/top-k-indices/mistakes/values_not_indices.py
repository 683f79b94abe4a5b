"""The k largest values themselves, not their indices."""

import numpy as np

HINT = ("You return the k largest values; the exercise asks for their positions in the row. "
        "np.argsort gives the indices that sort an array, np.sort the sorted values.")


def top_k_indices(x, k):
    return -np.sort(-x, axis=-1)[..., :k]
