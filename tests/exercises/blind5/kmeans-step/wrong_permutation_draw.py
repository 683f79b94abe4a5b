"""Wrong: init_centres takes the first k of rng.permutation(n) instead of rng.choice(n, size=k, replace=False) (other rows, other rng state)."""
import numpy as np


def init_centres(x, k, rng):
    rows = rng.permutation(x.shape[0])[:k]
    return x[rows]


def kmeans_step(x, centres):
    d2 = ((x[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
    labels = np.argmin(d2, axis=1)
    new = centres.copy()
    for j in range(len(centres)):
        if np.any(labels == j):
            new[j] = x[labels == j].mean(axis=0)
    return new, labels


# What the grader's hint says of this file, truly (the corpus README's table).
RIGHT_DIAGNOSES = ("other_draw_from_rng",)
