# expect: verdict=passed score=11 diagnosis=none
"""The means of every cluster at once: a one-hot matrix of the labels times x, divided by the
counts where a cluster has points."""

import numpy as np


def init_centres(x, k, rng):
    return x[rng.choice(len(x), size=k, replace=False)].copy()


def kmeans_step(x, centres):
    distances = np.linalg.norm(x[:, None, :] - centres[None, :, :], axis=-1)
    labels = np.argmin(distances, axis=1)
    one_hot = labels[:, None] == np.arange(len(centres))
    counts = one_hot.sum(axis=0)
    sums = one_hot.T.astype(x.dtype) @ x
    new_centres = np.where(counts[:, None] > 0, sums / np.maximum(counts, 1)[:, None], centres)
    return new_centres, labels
