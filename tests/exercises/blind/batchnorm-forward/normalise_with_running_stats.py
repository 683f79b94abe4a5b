"""Normalises with the updated running averages (test-time style) instead of the batch statistics."""

import numpy as np

RIGHT_DIAGNOSES = ("normalised_with_the_running_averages",)


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mu = x.mean(axis=0)
    var = x.var(axis=0)
    new_mean = momentum * running_mean + (1 - momentum) * mu
    new_var = momentum * running_var + (1 - momentum) * var
    out = gamma * (x - new_mean) / np.sqrt(new_var + eps) + beta
    return out, new_mean, new_var
