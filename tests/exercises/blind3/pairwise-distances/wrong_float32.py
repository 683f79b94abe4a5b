"""Broadcast differences computed in float32 to save memory on the (n, m, d) array."""
import numpy as np


def pairwise_distances(X, Y):
    diff = X.astype(np.float32)[:, None, :] - Y.astype(np.float32)[None, :, :]
    return np.sqrt((diff * diff).sum(axis=-1))


RIGHT_DIAGNOSES = ("single_precision",)
