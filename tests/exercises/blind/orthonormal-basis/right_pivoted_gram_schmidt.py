"""Correct: modified Gram-Schmidt with column pivoting and a second pass, rank from the SVD threshold."""

import numpy as np


def orthonormal_basis(a):
    m, n = a.shape
    s = np.linalg.svd(a, compute_uv=False)
    smax = s.max(initial=0.0)
    r = int(np.sum(s > max(m, n) * np.finfo(np.float64).eps * smax)) if smax > 0 else 0
    v = a.astype(np.float64).copy()
    q = np.zeros((m, r))
    for k in range(r):
        norms = np.linalg.norm(v, axis=0)
        j = int(np.argmax(norms))
        col = v[:, j] / norms[j]
        for _ in range(2):
            col = col - q[:, :k] @ (q[:, :k].T @ col)
            col = col / np.linalg.norm(col)
        q[:, k] = col
        v = v - np.outer(col, col @ v)
    return q
