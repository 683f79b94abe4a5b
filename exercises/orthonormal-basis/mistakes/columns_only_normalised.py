"""Every nonzero column of a scaled to length one: unit columns, but neither orthogonal nor
rank(a) of them."""

import numpy as np

HINT = (
    "Your columns have length one but are not orthogonal to each other, and there is one per "
    "nonzero column of a rather than rank(a) of them: dividing the columns by their lengths "
    "only normalises them. Make them orthogonal too (Gram-Schmidt, or the left singular "
    "vectors of a) and keep exactly rank(a) directions."
)


def orthonormal_basis(a):
    units = [column / np.linalg.norm(column) for column in a.T if np.any(column)]
    if not units:
        return np.zeros((a.shape[0], 0))
    return np.stack(units, axis=1)
