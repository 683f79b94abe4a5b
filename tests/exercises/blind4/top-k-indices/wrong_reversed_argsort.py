"""Mistake: reverses an ascending sort, which puts equal values in decreasing order of index."""
import numpy as np


def top_k_indices(x, k):
    return np.argsort(x, axis=-1, kind="stable")[..., ::-1][..., :k]


RIGHT_DIAGNOSES = ("ties_larger_index_first",)
