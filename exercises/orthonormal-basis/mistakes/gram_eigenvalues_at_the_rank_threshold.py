"""The eigenvectors of a @ a.T kept by numpy's rank threshold applied to its eigenvalues, the
squared singular values."""

import numpy as np

HINT = (
    "Your basis has too few columns for a full-rank matrix whose singular values are far "
    "apart (the smallest about 1e-9 of the largest): such a direction is lost when the "
    "singular values are squared, as they are in the eigenvalues of a Gram matrix (a @ a.T "
    "or a.T @ a), since 1e-18 is below rounding. Count the rank on the singular values of a "
    "itself."
)


def orthonormal_basis(a):
    values, vectors = np.linalg.eigh(a @ a.T)
    keep = values > values.max(initial=0.0) * max(a.shape) * np.finfo(a.dtype).eps
    return vectors[:, keep]
