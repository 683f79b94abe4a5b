"""Takes the k largest with argpartition but never sorts them, so they are not best first."""
import numpy as np


def top_k_indices(x, k):
    key = -x if x.dtype.kind == "f" else ~x
    return np.argpartition(key, k - 1, axis=-1)[..., :k]


RIGHT_DIAGNOSES = ("unstable_order",)
