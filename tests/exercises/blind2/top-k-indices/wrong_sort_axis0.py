"""Sorts along axis 0 (down the columns) instead of along each row's last axis."""
import numpy as np


def top_k_indices(x, k):
    key = -x if x.dtype.kind == "f" else ~x
    order = np.argsort(key, axis=0, kind="stable")
    return order[..., :k]


RIGHT_DIAGNOSES = ("axis",)
