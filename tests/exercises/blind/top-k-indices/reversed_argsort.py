"""Sorts ascending and reverses the indices, which puts tied values larger index first."""

import numpy as np

RIGHT_DIAGNOSES = ("ties_larger_index_first",)


def top_k_indices(x, k):
    return np.argsort(x, axis=-1, kind="stable")[..., ::-1][..., :k]
