"""Broadcasts Y first (Y[:, None] - X[None]), returning the (m, n) table instead of (n, m)."""
import numpy as np


def pairwise_distances(X, Y):
    diff = Y[:, None, :] - X[None, :, :]
    return np.sqrt((diff**2).sum(axis=2))


RIGHT_DIAGNOSES = ("permute_output",)
