"""Sorts -x stably for integers too, so the most negative integer overflows and ranks first."""

import numpy as np

RIGHT_DIAGNOSES = ("negation_overflows",)


def top_k_indices(x, k):
    return np.argsort(-x, axis=-1, kind="stable")[..., :k]
