"""Correct: the SVD of a divided by its largest entry, rank by the relative threshold, then a QR pass."""

import numpy as np


def orthonormal_basis(a):
    m, n = a.shape
    scale = np.abs(a).max(initial=0.0)
    if scale == 0.0:
        return np.zeros((m, 0))
    b = a / scale
    u, s, _ = np.linalg.svd(b, full_matrices=False)
    r = int(np.sum(s > max(m, n) * np.finfo(np.float64).eps * s[0]))
    q = u[:, :r]
    q, _ = np.linalg.qr(q)
    return q
