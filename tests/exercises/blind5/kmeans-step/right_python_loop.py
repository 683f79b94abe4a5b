"""Right: plain Python loops over points and centres, strict '<' so ties keep the lowest index, running sums for the means."""
import numpy as np


def init_centres(x, k, rng):
    rows = rng.choice(len(x), size=k, replace=False)
    return np.array([x[r] for r in rows], dtype=float).reshape(k, x.shape[1])


def kmeans_step(x, centres):
    n, d = x.shape
    k = centres.shape[0]
    labels = np.empty(n, dtype=np.int64)
    sums = [[0.0] * d for _ in range(k)]
    counts = [0] * k
    for i in range(n):
        best, best_d = 0, None
        for j in range(k):
            dist = 0.0
            for t in range(d):
                dist += (x[i, t] - centres[j, t]) ** 2
            if best_d is None or dist < best_d:
                best, best_d = j, dist
        labels[i] = best
        counts[best] += 1
        for t in range(d):
            sums[best][t] += x[i, t]
    new = np.empty((k, d))
    for j in range(k):
        for t in range(d):
            new[j, t] = sums[j][t] / counts[j] if counts[j] else centres[j, t]
    return new, labels
