"""Makes the threshold relative by dividing by s[0] and keeps at least one column, wrong for a = 0."""

import numpy as np

RIGHT_DIAGNOSES = ("at_least_one_column",)


def orthonormal_basis(a):
    u, s, _ = np.linalg.svd(a, full_matrices=False)
    rel = s / s[0]
    r = int(np.sum(rel > max(a.shape) * np.finfo(np.float64).eps))
    if r == 0:
        r = 1
    return u[:, :r]
