"""Computes in float32 to save memory, which misses the 1e-7 relative accuracy."""
import numpy as np


def pairwise_distances(X, Y):
    x32 = X.astype(np.float32)
    y32 = Y.astype(np.float32)
    diff = x32[:, None, :] - y32[None, :, :]
    return np.sqrt((diff * diff).sum(axis=-1)).astype(np.float64)


RIGHT_DIAGNOSES = ("single_precision",)
