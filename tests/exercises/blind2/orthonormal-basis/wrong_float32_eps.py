"""Uses float32's machine epsilon in the rank threshold, so small but real singular values are dropped."""
import numpy as np


def orthonormal_basis(a):
    u, s, _ = np.linalg.svd(a, full_matrices=False)
    if s.size == 0 or s[0] == 0:
        return np.zeros((a.shape[0], 0))
    tol = max(a.shape) * np.finfo(np.float32).eps * s[0]
    return u[:, s > tol]

RIGHT_DIAGNOSES = ("gram_eigenvalues_at_the_rank_threshold",)
