# expect: verdict=failed score=17 diagnosis=none
"""A learner who knows the clip but not the cancellation: the Gram matrix of the raw points.

It fails where the points lie far from the origin, as mistakes/uncentred_expansion.py does,
but is not diagnosed as it: what both get wrong is rounding error, which differs with the
order of the operations (einsum here, a sum of squares there), and a diagnosis needs the
outputs to agree within the tolerance."""

import numpy as np


def pairwise_distances(X, Y):
    x_norms = np.einsum("ij,ij->i", X, X)
    y_norms = np.einsum("ij,ij->i", Y, Y)
    gram = X @ Y.T
    return np.sqrt(np.clip(x_norms[:, None] + y_norms[None, :] - 2 * gram, 0, None))
