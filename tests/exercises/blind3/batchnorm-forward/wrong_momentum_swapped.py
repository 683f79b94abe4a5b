"""Batch norm with PyTorch's momentum convention: momentum weighs the new batch, not the old averages."""
import numpy as np


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mu = np.mean(x, axis=0)
    var = np.var(x, axis=0)
    out = gamma * (x - mu) / np.sqrt(var + eps) + beta
    running_mean = (1 - momentum) * running_mean + momentum * mu
    running_var = (1 - momentum) * running_var + momentum * var
    return out, running_mean, running_var


RIGHT_DIAGNOSES = ("momentum_on_the_batch",)
