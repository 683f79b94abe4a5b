"""Mistake: updates running_mean and running_var in place (the caller's arrays change)."""
import numpy as np


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mean = x.mean(axis=0)
    var = x.var(axis=0)
    out = gamma * (x - mean) / np.sqrt(var + eps) + beta
    running_mean *= momentum
    running_mean += (1 - momentum) * mean
    running_var *= momentum
    running_var += (1 - momentum) * var
    return out, running_mean, running_var


RIGHT_DIAGNOSES = ("changed_input",)
