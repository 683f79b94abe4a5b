"""Mistake: PyTorch's momentum convention (momentum weighs the new batch, not the old average)."""
import numpy as np


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mean = x.mean(axis=0)
    var = ((x - mean) ** 2).mean(axis=0)
    out = gamma * (x - mean) / np.sqrt(var + eps) + beta
    new_mean = (1 - momentum) * running_mean + momentum * mean
    new_var = (1 - momentum) * running_var + momentum * var
    return out, new_mean, new_var


RIGHT_DIAGNOSES = ("momentum_on_the_batch",)
