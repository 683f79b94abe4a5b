"""Orthonormal basis taken from the rows of Vt (the row space) instead of the columns of U."""
import numpy as np


def orthonormal_basis(a):
    _, s, vt = np.linalg.svd(a, full_matrices=False)
    tol = max(a.shape) * np.finfo(np.float64).eps * (s[0] if s.size else 0.0)
    r = int(np.sum(s > tol))
    return vt[:r].T


RIGHT_DIAGNOSES = ("row_space",)
