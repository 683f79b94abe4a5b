"""Orthonormal basis from the SVD with a fixed threshold s > 1e-10, not relative to the largest singular value."""
import numpy as np


def orthonormal_basis(a):
    u, s, _ = np.linalg.svd(a, full_matrices=False)
    r = int(np.sum(s > 1e-10))
    return u[:, :r]


RIGHT_DIAGNOSES = ("absolute_rank_threshold",)
