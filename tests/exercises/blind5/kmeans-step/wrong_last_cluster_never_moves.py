"""Wrong: off-by-one, the update loop runs over range(k - 1), so the last centre never moves."""
import numpy as np


def init_centres(x, k, rng):
    rows = rng.choice(x.shape[0], size=k, replace=False)
    return x[rows]


def kmeans_step(x, centres):
    k = len(centres)
    d2 = ((x[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
    labels = np.argmin(d2, axis=1)
    new = centres.copy()
    for j in range(k - 1):
        if np.any(labels == j):
            new[j] = x[labels == j].mean(axis=0)
    return new, labels


# What the grader's hint says of this file, truly (the corpus README's table).
RIGHT_DIAGNOSES = ("shift_range",)
