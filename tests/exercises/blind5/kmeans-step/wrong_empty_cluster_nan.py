"""Wrong: a cluster with no point gets the mean of an empty set (NaN) instead of keeping its centre."""
import numpy as np
import warnings


def init_centres(x, k, rng):
    rows = rng.choice(x.shape[0], size=k, replace=False)
    return x[rows]


def kmeans_step(x, centres):
    d2 = ((x[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
    labels = np.argmin(d2, axis=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        new = np.array([x[labels == j].mean(axis=0) for j in range(len(centres))])
    return new, labels


# What the grader's hint says of this file, truly (the corpus README's table).
RIGHT_DIAGNOSES = ("empty_cluster_nan",)
