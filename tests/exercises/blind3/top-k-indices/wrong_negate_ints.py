"""Top-k by a stable argsort of -x for every dtype, which breaks on the most negative integer."""
import numpy as np


def top_k_indices(x, k):
    return np.argsort(-x, axis=-1, kind="stable")[..., :k]


RIGHT_DIAGNOSES = ("negation_overflows",)
