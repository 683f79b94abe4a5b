# expect: verdict=failed score=15 diagnosis=ties_larger_index_first
"""A learner who sorts ascending and reads the result from the end."""

import numpy as np


def top_k_indices(x, k):
    order = np.argsort(x, axis=-1, kind="mergesort")
    return np.flip(order, axis=-1)[..., :k]
