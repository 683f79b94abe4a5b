# expect: verdict=passed score=22 diagnosis=none
"""Another correct method: the eigenvectors of a @ a.T whose eigenvalues are not zero span the
column space (a @ a.T = U S^2 U.T), with a relative threshold on the eigenvalues."""

import numpy as np


def orthonormal_basis(a):
    gram = a @ a.T
    values, vectors = np.linalg.eigh(gram)
    keep = values > values.max(initial=0.0) * 1e-10
    return vectors[:, keep]
