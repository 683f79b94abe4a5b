"""Wrong: kmeans_step returns (labels, new_centres), the two outputs in the wrong order."""
import numpy as np


def init_centres(x, k, rng):
    rows = rng.choice(x.shape[0], size=k, replace=False)
    return x[rows]


def kmeans_step(x, centres):
    d2 = ((x[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
    labels = np.argmin(d2, axis=1)
    new = centres.copy()
    for j in range(len(centres)):
        if np.any(labels == j):
            new[j] = x[labels == j].mean(axis=0)
    return labels, new
