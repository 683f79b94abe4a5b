"""The first rank rows of the full U turned into columns, instead of its first rank columns."""

import numpy as np

HINT = (
    "Your columns are orthonormal and there are rank(a) of them, but they span the columns of "
    "a only when the rank is m: they are the first rank rows of the left singular vector "
    "matrix u, transposed, not its columns. The basis is u's first rank columns, u[:, :rank]."
)


def orthonormal_basis(a):
    u, s, _ = np.linalg.svd(a)
    rank = int(np.sum(s > s.max(initial=0.0) * max(a.shape) * np.finfo(a.dtype).eps))
    return u.T[:, :rank]
