"""Wrong: ties go to the highest index (argmin over the reversed centres, mapped back), not the lowest."""
import numpy as np


def init_centres(x, k, rng):
    rows = rng.choice(x.shape[0], size=k, replace=False)
    return x[rows]


def kmeans_step(x, centres):
    k = centres.shape[0]
    d2 = ((x[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
    labels = k - 1 - np.argmin(d2[:, ::-1], axis=1)
    new = centres.copy()
    for j in range(k):
        if np.any(labels == j):
            new[j] = x[labels == j].mean(axis=0)
    return new, labels


# What the grader's hint says of this file, truly (the corpus README's table).
RIGHT_DIAGNOSES = ("ties_to_the_highest_index",)
