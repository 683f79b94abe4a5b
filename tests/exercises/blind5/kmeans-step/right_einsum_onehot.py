"""Right: distances with einsum on the difference tensor, means by a one-hot matrix product, empty clusters kept with np.where."""
import numpy as np


def init_centres(x, k, rng):
    rows = rng.choice(x.shape[0], size=k, replace=False)
    return np.take(x, rows, axis=0)


def kmeans_step(x, centres):
    diff = x[:, None, :] - centres[None, :, :]
    d2 = np.einsum("nkd,nkd->nk", diff, diff)
    labels = d2.argmin(axis=1)
    k = centres.shape[0]
    onehot = (labels[:, None] == np.arange(k)[None, :]).astype(float)   # (n, k)
    counts = onehot.sum(axis=0)
    sums = onehot.T @ x
    safe = np.where(counts > 0, counts, 1.0)
    new = np.where(counts[:, None] > 0, sums / safe[:, None], centres)
    return new, labels
