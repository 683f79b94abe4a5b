import numpy as np


def init_centres(x, k, rng):
    """x: (n, d) points; k: the number of clusters, 1 <= k <= n; rng: a numpy Generator.
    Return k distinct rows of x, shape (k, d), chosen with
    rng.choice(n, size=k, replace=False), in the order drawn."""


def kmeans_step(x, centres):
    """x: (n, d) points; centres: (k, d). Return (new_centres, labels): labels[i] is the
    index of the centre nearest to x[i] (ties to the lowest index); new_centres[j] is the
    mean of the points labelled j, or centres[j] if there are none."""
