# expect: verdict=failed score=0 diagnosis=none
"""A learner who writes the definition with two loops: refused before it runs."""

import numpy as np


def pairwise_distances(X, Y):
    D = np.zeros((X.shape[0], Y.shape[0]))
    for i in range(X.shape[0]):
        for j in range(Y.shape[0]):
            D[i, j] = np.sqrt(np.sum((X[i] - Y[j]) ** 2))
    return D
