"""The rank kept at least 1, so the zero matrix gets a column."""

import numpy as np

HINT = (
    "Your basis is right except for the zero matrix, where you return one column: the zero "
    "matrix's column space is {0}, whose basis has no vector at all. Return an m x 0 array "
    "there: its rank is 0, and no column may be kept."
)


def orthonormal_basis(a):
    u, s, _ = np.linalg.svd(a, full_matrices=False)
    tolerance = s.max(initial=0.0) * max(a.shape) * np.finfo(a.dtype).eps
    rank = max(int(np.sum(s > tolerance)), 1)
    return u[:, :rank]
