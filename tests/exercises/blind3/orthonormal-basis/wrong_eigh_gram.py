"""Basis from the eigenvectors of a @ a.T, which squares the condition number and drops small singular directions."""
import numpy as np


def orthonormal_basis(a):
    vals, vecs = np.linalg.eigh(a @ a.T)
    order = np.argsort(vals)[::-1]
    vals, vecs = vals[order], vecs[:, order]
    top = vals[0] if vals.size else 0.0
    r = int(np.sum(vals > max(a.shape) * np.finfo(np.float64).eps * top))
    return vecs[:, :r]


RIGHT_DIAGNOSES = ("gram_eigenvalues_at_the_rank_threshold",)
