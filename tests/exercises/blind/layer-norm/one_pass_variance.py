"""Computes the variance as mean(x**2) - mean(x)**2, which cancels for large offsets."""

import numpy as np

RIGHT_DIAGNOSES = ("variance_from_moments",)


def layer_norm(x, gamma, beta, eps):
    mu = np.mean(x, axis=-1, keepdims=True)
    var = np.mean(x * x, axis=-1, keepdims=True) - mu * mu
    return gamma * (x - mu) / np.sqrt(var + eps) + beta
