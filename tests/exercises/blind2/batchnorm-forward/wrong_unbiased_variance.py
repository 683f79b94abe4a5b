"""Uses the unbiased variance (ddof=1) in the normalisation and the running average."""
import numpy as np


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mean = x.mean(axis=0)
    var = x.var(axis=0, ddof=1)
    out = gamma * (x - mean) / np.sqrt(var + eps) + beta
    new_mean = momentum * running_mean + (1 - momentum) * mean
    new_var = momentum * running_var + (1 - momentum) * var
    return out, new_mean, new_var


RIGHT_DIAGNOSES = ("unbiased_variance",)
