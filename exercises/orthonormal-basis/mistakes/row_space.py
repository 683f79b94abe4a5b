"""The right singular vectors: an orthonormal basis of the row space, not the column space."""

import numpy as np

HINT = ("Your columns form an orthonormal basis of the row space of a (the span of its rows), "
        "which is the columns' space only by chance. The column space lives in R^m, where the "
        "columns of a are: take the left singular vectors u, not the rows of vt.")


def orthonormal_basis(a):
    _, s, vt = np.linalg.svd(a, full_matrices=False)
    rank = int(np.sum(s > s.max(initial=0.0) * max(a.shape) * np.finfo(a.dtype).eps))
    return vt[:rank].T
