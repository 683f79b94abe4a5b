"""Batch norm with the unbiased variance (ddof=1) everywhere."""
import numpy as np


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mu = np.mean(x, axis=0)
    var = np.var(x, axis=0, ddof=1)
    x_hat = (x - mu) / np.sqrt(var + eps)
    out = gamma * x_hat + beta
    running_mean = momentum * running_mean + (1 - momentum) * mu
    running_var = momentum * running_var + (1 - momentum) * var
    return out, running_mean, running_var


RIGHT_DIAGNOSES = ("unbiased_variance",)
