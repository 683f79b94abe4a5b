"""Batch norm that updates running_mean and running_var in place and returns the input arrays."""
import numpy as np


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mu = x.mean(axis=0)
    var = x.var(axis=0)
    out = gamma * (x - mu) / np.sqrt(var + eps) + beta
    running_mean *= momentum
    running_mean += (1 - momentum) * mu
    running_var *= momentum
    running_var += (1 - momentum) * var
    return out, running_mean, running_var


RIGHT_DIAGNOSES = ("changed_input",)
