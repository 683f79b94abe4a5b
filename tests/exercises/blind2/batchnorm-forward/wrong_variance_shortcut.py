"""Computes the variance as mean(x**2) - mean**2, which loses it to rounding for large offsets."""
import numpy as np


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mu = x.mean(axis=0)
    var = (x**2).mean(axis=0) - mu**2
    x_hat = (x - mu) / np.sqrt(var + eps)
    out = gamma * x_hat + beta
    return out, momentum * running_mean + (1 - momentum) * mu, momentum * running_var + (1 - momentum) * var


RIGHT_DIAGNOSES = ("variance_from_moments",)
