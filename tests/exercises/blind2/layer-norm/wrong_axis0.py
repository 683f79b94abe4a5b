"""Normalises over axis 0 (across the examples) instead of over the last axis of features."""
import numpy as np


def layer_norm(x, gamma, beta, eps):
    mu = np.mean(x, axis=0, keepdims=True)
    var = np.mean((x - mu) ** 2, axis=0, keepdims=True)
    return gamma * (x - mu) / np.sqrt(var + eps) + beta


RIGHT_DIAGNOSES = ("normalised_over_the_batch",)
