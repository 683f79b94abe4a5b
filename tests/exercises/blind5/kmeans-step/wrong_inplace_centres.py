"""Wrong: kmeans_step updates the centres passed in, in place, and returns that same array (modifies its input)."""
import numpy as np


def init_centres(x, k, rng):
    rows = rng.choice(x.shape[0], size=k, replace=False)
    return x[rows]


def kmeans_step(x, centres):
    d2 = ((x[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
    labels = np.argmin(d2, axis=1)
    for j in range(len(centres)):
        if np.any(labels == j):
            centres[j] = x[labels == j].mean(axis=0)
    return centres, labels


# What the grader's hint says of this file, truly (the corpus README's table).
RIGHT_DIAGNOSES = ("changed_input",)
