"""Layer norm that takes the mean and variance over axis 0 (across examples) instead of the last axis."""
import numpy as np


def layer_norm(x, gamma, beta, eps):
    mu = np.mean(x, axis=0, keepdims=True)
    var = np.var(x, axis=0, keepdims=True)
    return gamma * (x - mu) / np.sqrt(var + eps) + beta


RIGHT_DIAGNOSES = ("normalised_over_the_batch",)
