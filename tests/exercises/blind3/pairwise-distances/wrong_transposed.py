"""Broadcasts Y on the first axis and X on the second, giving the (m, n) table."""
import numpy as np


def pairwise_distances(X, Y):
    diff = Y[:, None, :] - X[None, :, :]
    return np.sqrt((diff**2).sum(axis=2))


RIGHT_DIAGNOSES = ("permute_output",)
