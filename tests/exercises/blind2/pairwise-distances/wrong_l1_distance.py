"""Sums absolute differences (the Manhattan distance) instead of the square root of summed squares."""
import numpy as np


def pairwise_distances(X, Y):
    return np.abs(X[:, None, :] - Y[None, :, :]).sum(axis=-1)


RIGHT_DIAGNOSES = ("manhattan_distance",)
