"""Wrong: labels are a float array (np.zeros(n) filled in a loop), not an integer array."""
import numpy as np


def init_centres(x, k, rng):
    rows = rng.choice(x.shape[0], size=k, replace=False)
    return x[rows]


def kmeans_step(x, centres):
    n = x.shape[0]
    labels = np.zeros(n)
    for i in range(n):
        labels[i] = np.argmin(((centres - x[i]) ** 2).sum(axis=1))
    new = centres.copy()
    for j in range(len(centres)):
        if np.any(labels == j):
            new[j] = x[labels == j].mean(axis=0)
    return new, labels


# What the grader's hint says of this file, truly (the corpus README's table).
RIGHT_DIAGNOSES = ("wrong_dtype",)
