"""Drops keepdims, so the per-row mean broadcasts along the features (raises or mixes rows when N == D)."""
import numpy as np


def layer_norm(x, gamma, beta, eps):
    mu = np.mean(x, axis=-1)
    var = np.var(x, axis=-1)
    return gamma * (x - mu) / np.sqrt(var + eps) + beta


RIGHT_DIAGNOSES = ("statistics_lose_their_axis",)
