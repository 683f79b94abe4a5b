"""Mistake: broadcasts the new axes the other way round, giving the (m, n) transpose."""
import numpy as np


def pairwise_distances(X, Y):
    diff = X[None, :, :] - Y[:, None, :]
    return np.sqrt((diff**2).sum(axis=-1))


RIGHT_DIAGNOSES = ("permute_output",)
