"""The k largest, in increasing order: the last k of an ascending argsort."""

import numpy as np

HINT = ("You return the right indices in the opposite order: the statement asks for the "
        "index of the largest value first. The last k of an ascending sort are the k largest, "
        "smallest of them first; reverse them (or sort -x).")


def top_k_indices(x, k):
    return np.argsort(x, axis=-1, kind="stable")[..., x.shape[-1] - k:]
