"""Uses np.flip without an axis, which on a batch also reverses the order of the rows (and ties)."""
import numpy as np


def top_k_indices(x, k):
    order = np.flip(np.argsort(x, axis=-1, kind="stable"))
    return order[..., :k]


RIGHT_DIAGNOSES = ("reversed_along_every_axis",)
