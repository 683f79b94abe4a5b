"""Mistake: takes the right singular vectors (rows of Vt), a basis of the row space, not the column space."""
import numpy as np


def orthonormal_basis(a):
    _, s, vt = np.linalg.svd(a, full_matrices=False)
    tol = max(a.shape) * np.finfo(np.float64).eps * (s.max() if s.size else 0.0)
    r = int(np.sum(s > tol))
    return vt[:r].T


RIGHT_DIAGNOSES = ("row_space",)
