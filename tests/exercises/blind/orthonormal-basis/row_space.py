"""Takes the first r rows of V^T (a basis of the row space) instead of the columns of U."""

import numpy as np

RIGHT_DIAGNOSES = ("row_space",)


def orthonormal_basis(a):
    u, s, vt = np.linalg.svd(a, full_matrices=False)
    tol = max(a.shape) * np.finfo(np.float64).eps * (s.max() if s.size else 0.0)
    r = int(np.sum(s > tol))
    return vt[:r].T
