"""Takes eigenvectors of a @ a.T with matrix_rank's threshold on the eigenvalues, which are squared singular values."""

import numpy as np

RIGHT_DIAGNOSES = ("gram_eigenvalues_at_the_rank_threshold",)


def orthonormal_basis(a):
    lam, vec = np.linalg.eigh(a @ a.T)
    lam, vec = lam[::-1], vec[:, ::-1]
    top = lam.max(initial=0.0)
    r = int(np.sum(lam > max(a.shape) * np.finfo(np.float64).eps * top)) if top > 0 else 0
    return vec[:, :r]
