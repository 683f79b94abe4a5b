"""Uses the full U (m columns) of np.linalg.svd's default full_matrices=True, cut at the rank of min(m,n)."""

import numpy as np


def orthonormal_basis(a):
    u, s, _ = np.linalg.svd(a)
    tol = max(a.shape) * np.finfo(np.float64).eps * s.max(initial=0.0)
    r = int(np.count_nonzero(s > tol))
    return u[:, : r + (a.shape[0] - min(a.shape))]
