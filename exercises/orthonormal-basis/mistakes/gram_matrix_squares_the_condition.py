"""The eigenvectors of a @ a.T whose eigenvalues are not zero: they span the column space in
exact arithmetic (a @ a.T = U S^2 U.T), but the eigenvalues are the squared singular values, so
a full-rank, ill-conditioned matrix loses the directions of its small singular values."""

import numpy as np

HINT = ("Your basis has too few columns for a full-rank matrix whose singular values are far "
        "apart (the smallest about 1e-9 of the largest): such a direction is lost when the "
        "singular values are squared, as they are in the eigenvalues of a Gram matrix (a @ a.T "
        "or a.T @ a), since 1e-18 is below rounding. Count the rank on the singular values of "
        "a itself.")


def orthonormal_basis(a):
    gram = a @ a.T
    values, vectors = np.linalg.eigh(gram)
    keep = values > values.max(initial=0.0) * 1e-10
    return vectors[:, keep]
