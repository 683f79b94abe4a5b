"""Mistake: variance as E[x^2] - mean^2, which cancels catastrophically for a large offset."""
import numpy as np


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mean = x.mean(axis=0)
    var = (x**2).mean(axis=0) - mean**2
    out = gamma * (x - mean) / np.sqrt(var + eps) + beta
    return out, momentum * running_mean + (1 - momentum) * mean, momentum * running_var + (1 - momentum) * var


RIGHT_DIAGNOSES = ("variance_from_moments",)
