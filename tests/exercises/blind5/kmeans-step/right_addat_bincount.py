"""Right: np.linalg.norm of differences for the distances, np.add.at for the sums and np.bincount for the counts."""
import numpy as np


def init_centres(x, k, rng):
    n = x.shape[0]
    idx = rng.choice(n, size=k, replace=False)
    out = np.zeros((k, x.shape[1]))
    out[:] = x[idx]
    return out


def kmeans_step(x, centres):
    k, d = centres.shape
    dist = np.linalg.norm(x[:, np.newaxis, :] - centres[np.newaxis, :, :], axis=-1)
    labels = np.argmin(dist, axis=-1).astype(np.int32)
    sums = np.zeros((k, d))
    np.add.at(sums, labels, x)
    counts = np.bincount(labels, minlength=k)
    new = centres.astype(float, copy=True)
    has = counts > 0
    new[has] = sums[has] / counts[has, None]
    return [new, labels]
