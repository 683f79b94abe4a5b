# expect: verdict=passed score=20 diagnosis=none
"""Another correct method: every difference X[i] - Y[j] built by broadcasting, (n, m, d) in
memory. Exact to rounding, so it is where a reference weaker than the tolerance would show."""

import numpy as np


def pairwise_distances(X, Y):
    differences = X[:, np.newaxis, :] - Y[np.newaxis, :, :]
    return np.sqrt(np.einsum("ijk,ijk->ij", differences, differences))
