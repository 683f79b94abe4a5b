"""Wrong: nearest centre by Manhattan (L1) distance, sum of |x - c|, instead of Euclidean."""
import numpy as np


def init_centres(x, k, rng):
    rows = rng.choice(x.shape[0], size=k, replace=False)
    return x[rows]


def kmeans_step(x, centres):
    dist = np.abs(x[:, None, :] - centres[None, :, :]).sum(axis=2)
    labels = np.argmin(dist, axis=1)
    new = centres.copy()
    for j in range(len(centres)):
        if np.any(labels == j):
            new[j] = x[labels == j].mean(axis=0)
    return new, labels
