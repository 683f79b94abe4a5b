"""The eigenvectors of a @ a.T kept by numpy's rank threshold applied to its eigenvalues, the
squared singular values."""

import numpy as np

HINT = (
    "Your basis has too few columns for a full-rank matrix whose singular values are far "
    "apart (the smallest about 1e-9 of the largest): that direction was counted as zero. "
    "Two things drop it: a threshold looser than max(m, n) * eps * s_max with float64's eps, "
    "and singular values squared, as they are in the eigenvalues of a Gram matrix (a @ a.T "
    "or a.T @ a), where 1e-18 is below rounding. Count the rank on the singular values of a "
    "itself, with that threshold."
)


def orthonormal_basis(a):
    values, vectors = np.linalg.eigh(a @ a.T)
    keep = values > values.max(initial=0.0) * max(a.shape) * np.finfo(a.dtype).eps
    return vectors[:, keep]
