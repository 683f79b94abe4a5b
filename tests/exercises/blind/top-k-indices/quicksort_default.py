"""Sorts -x with argsort's default (unstable) kind, so ties come out in no guaranteed order."""

import numpy as np

RIGHT_DIAGNOSES = ("partition_not_sorted",)


def top_k_indices(x, k):
    return np.argsort(-x, axis=-1)[..., :k]
