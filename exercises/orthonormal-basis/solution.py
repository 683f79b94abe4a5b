"""Reference solution: the left singular vectors of the nonzero singular values."""

import numpy as np


def orthonormal_basis(a: np.ndarray) -> np.ndarray:
    """An orthonormal basis of the column space of ``a``, one column per dimension."""
    u, s, _ = np.linalg.svd(a, full_matrices=False)
    # numpy's matrix_rank threshold: singular values below it are rounding errors of zero.
    tolerance = s.max(initial=0.0) * max(a.shape) * np.finfo(a.dtype).eps
    rank = int(np.sum(s > tolerance))
    return u[:, :rank]
