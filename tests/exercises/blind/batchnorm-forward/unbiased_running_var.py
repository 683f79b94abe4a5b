"""Averages the unbiased (N - 1) batch variance into the running variance, as PyTorch does."""

import numpy as np

RIGHT_DIAGNOSES = ("running_var_unbiased",)


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mu = x.mean(axis=0)
    var = x.var(axis=0)
    out = gamma * (x - mu) / np.sqrt(var + eps) + beta
    n = x.shape[0]
    new_mean = momentum * running_mean + (1 - momentum) * mu
    new_var = momentum * running_var + (1 - momentum) * var * n / (n - 1)
    return out, new_mean, new_var
