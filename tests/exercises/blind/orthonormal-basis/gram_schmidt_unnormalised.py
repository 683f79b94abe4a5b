"""Gram-Schmidt that orthogonalises the columns and drops dependent ones, but never normalises them."""

import numpy as np

RIGHT_DIAGNOSES = ("not_normalised",)


def orthonormal_basis(a):
    scale = np.abs(a).max(initial=0.0)
    basis = []
    for j in range(a.shape[1]):
        v = a[:, j].astype(np.float64).copy()
        for b in basis:
            v -= (b @ v) / (b @ b) * b
        if np.linalg.norm(v) > 1e-9 * max(scale, 1e-300) * np.sqrt(a.shape[0]):
            basis.append(v)
    if not basis:
        return np.zeros((a.shape[0], 0))
    return np.stack(basis, axis=1)
