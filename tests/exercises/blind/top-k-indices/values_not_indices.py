"""Returns the k largest values themselves instead of their indices."""

import numpy as np

RIGHT_DIAGNOSES = ("values_not_indices",)


def top_k_indices(x, k):
    order = np.argsort(-x.astype(np.float64), axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, order, axis=-1)
