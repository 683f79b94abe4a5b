"""Divides each nonzero column of a by its length and calls that an orthonormal basis (no orthogonalisation, no rank)."""
import numpy as np


def orthonormal_basis(a):
    norms = np.linalg.norm(a, axis=0)
    keep = norms > 0
    return a[:, keep] / norms[keep]


RIGHT_DIAGNOSES = ("columns_only_normalised",)
