"""Shortcut: casts everything to float64 and sorts -x, ignoring the integer rule (~x) it states."""

import numpy as np


def top_k_indices(x, k):
    return np.argsort(-np.asarray(x, dtype=np.float64), axis=-1, kind="stable")[..., :k]


RIGHT_DIAGNOSES = ("integers_as_floats",)
