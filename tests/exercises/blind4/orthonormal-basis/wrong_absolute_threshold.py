"""Mistake: counts singular values above a fixed 1e-10, not a threshold relative to the largest one."""
import numpy as np


def orthonormal_basis(a):
    u, s, _ = np.linalg.svd(a, full_matrices=False)
    r = int(np.sum(s > 1e-10))
    return u[:, :r]


RIGHT_DIAGNOSES = ("absolute_rank_threshold",)
