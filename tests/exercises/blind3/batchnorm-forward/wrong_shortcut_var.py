"""Batch norm with the one-pass variance E[x^2] - E[x]^2, which cancels catastrophically for large means."""
import numpy as np


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mu = x.mean(axis=0)
    var = (x**2).mean(axis=0) - mu**2
    out = gamma * (x - mu) / np.sqrt(var + eps) + beta
    return out, momentum * running_mean + (1 - momentum) * mu, momentum * running_var + (1 - momentum) * var


RIGHT_DIAGNOSES = ("variance_from_moments",)
