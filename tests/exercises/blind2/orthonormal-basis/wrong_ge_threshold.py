"""Keeps singular values >= the threshold instead of >, so a zero matrix (threshold 0) keeps min(m, n) columns."""
import numpy as np


def orthonormal_basis(a):
    u, s, _ = np.linalg.svd(a, full_matrices=False)
    tol = max(a.shape) * np.finfo(np.float64).eps * s[0]
    r = int(np.count_nonzero(s >= tol))
    return u[:, :r]


RIGHT_DIAGNOSES = ("comparison_boundary",)
