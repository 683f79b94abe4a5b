"""Right: labels from a stable argsort of each distance row, means by sorting points by label and np.add.reduceat over the runs."""
import numpy as np


def init_centres(x, k, rng):
    order = rng.choice(x.shape[0], size=k, replace=False)
    return x[order, :]


def kmeans_step(x, centres):
    k = centres.shape[0]
    d2 = np.square(x[:, None, :] - centres[None, :, :]).sum(axis=2)
    labels = np.argsort(d2, axis=1, kind="stable")[:, 0]
    perm = np.argsort(labels, kind="stable")
    sorted_labels = labels[perm]
    sorted_x = x[perm]
    starts = np.flatnonzero(np.r_[True, sorted_labels[1:] != sorted_labels[:-1]])
    present = sorted_labels[starts]
    sums = np.add.reduceat(sorted_x, starts, axis=0)
    counts = np.diff(np.r_[starts, len(sorted_labels)])
    new = np.array(centres, dtype=float)
    new[present] = sums / counts[:, None]
    return new, labels
