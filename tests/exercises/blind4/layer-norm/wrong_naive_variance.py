"""Mistake: variance as mean(x^2) - mean^2, which loses everything for values around 1e6."""
import numpy as np


def layer_norm(x, gamma, beta, eps):
    mean = x.mean(axis=-1, keepdims=True)
    var = (x * x).mean(axis=-1, keepdims=True) - mean**2
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


RIGHT_DIAGNOSES = ("variance_from_moments",)
