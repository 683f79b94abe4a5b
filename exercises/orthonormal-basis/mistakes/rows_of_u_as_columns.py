"""The first rank rows of the full U turned into columns, instead of its first rank columns."""

import numpy as np

HINT = (
    "Your columns are orthonormal and there are rank(a) of them, but they span the columns of "
    "a only when the rank is m: rows were taken where columns belong. With a = u s vt, the "
    "basis is the first rank columns of u, u[:, :rank], not its first rank rows turned into "
    "columns."
)


def orthonormal_basis(a):
    u, s, _ = np.linalg.svd(a)
    rank = int(np.sum(s > s.max(initial=0.0) * max(a.shape) * np.finfo(a.dtype).eps))
    return u.T[:, :rank]
