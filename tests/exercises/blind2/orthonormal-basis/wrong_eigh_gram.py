"""Takes eigenvectors of a @ a.T with the rank threshold on its eigenvalues, which squares the condition number."""
import numpy as np


def orthonormal_basis(a):
    m, n = a.shape
    lam, vecs = np.linalg.eigh(a @ a.T)
    order = np.argsort(lam)[::-1]
    lam, vecs = lam[order], vecs[:, order]
    tol = max(m, n) * np.finfo(np.float64).eps * max(lam[0], 0.0)
    r = int(np.sum(lam > tol))
    return vecs[:, :r]

RIGHT_DIAGNOSES = ("gram_eigenvalues_at_the_rank_threshold",)
