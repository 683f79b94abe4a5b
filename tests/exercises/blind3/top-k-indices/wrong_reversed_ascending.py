"""Top-k by reversing an ascending stable argsort, which puts equal values in decreasing order of index."""
import numpy as np


def top_k_indices(x, k):
    order = np.argsort(x, axis=-1, kind="stable")
    return order[..., ::-1][..., :k]


RIGHT_DIAGNOSES = ("ties_larger_index_first",)
