"""Mistake: normalises over the batch axis (axis 0) instead of the last axis."""
import numpy as np


def layer_norm(x, gamma, beta, eps):
    mean = x.mean(axis=0, keepdims=True)
    var = x.var(axis=0, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


RIGHT_DIAGNOSES = ("normalised_over_the_batch",)
