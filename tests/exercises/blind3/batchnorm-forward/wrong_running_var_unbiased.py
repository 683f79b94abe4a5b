"""Batch norm normalising with the biased variance but feeding the unbiased one (N-1) into running_var, as PyTorch does."""
import numpy as np


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    n = x.shape[0]
    mu = x.mean(axis=0)
    var = x.var(axis=0)
    out = gamma * (x - mu) / np.sqrt(var + eps) + beta
    unbiased = var * n / (n - 1) if n > 1 else var
    new_mean = momentum * running_mean + (1 - momentum) * mu
    new_var = momentum * running_var + (1 - momentum) * unbiased
    return out, new_mean, new_var


RIGHT_DIAGNOSES = ("running_var_unbiased", "running_var_unbiased_where_defined")
