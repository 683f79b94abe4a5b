"""Computes the batch variance as E[x^2] - E[x]^2, which cancels for data far from zero."""

import numpy as np

RIGHT_DIAGNOSES = ("variance_from_moments",)


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mu = np.mean(x, axis=0)
    var = np.mean(x**2, axis=0) - mu**2
    xhat = (x - mu) / np.sqrt(var + eps)
    return (
        gamma * xhat + beta,
        momentum * running_mean + (1 - momentum) * mu,
        momentum * running_var + (1 - momentum) * var,
    )
