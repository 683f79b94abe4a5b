"""Correct: the rank from np.linalg.matrix_rank, then the leading left singular vectors via a compress mask."""
import numpy as np


def orthonormal_basis(a):
    a = np.array(a, dtype=np.float64, copy=True)
    rank = np.linalg.matrix_rank(a)
    u = np.linalg.svd(a, full_matrices=False)[0]
    keep = np.arange(u.shape[1]) < rank
    return np.compress(keep, u, axis=1)
