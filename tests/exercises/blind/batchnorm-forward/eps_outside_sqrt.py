"""Adds eps to the standard deviation, sqrt(var) + eps, instead of under the square root."""

import numpy as np

RIGHT_DIAGNOSES = ("eps_outside_the_root",)


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mu = x.mean(axis=0)
    var = ((x - mu) ** 2).mean(axis=0)
    out = gamma * (x - mu) / (np.sqrt(var) + eps) + beta
    return (
        out,
        momentum * running_mean + (1 - momentum) * mu,
        momentum * running_var + (1 - momentum) * var,
    )
