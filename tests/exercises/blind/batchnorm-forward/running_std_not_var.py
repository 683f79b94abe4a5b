"""Averages the batch standard deviation into running_var instead of the variance."""

import numpy as np

RIGHT_DIAGNOSES = ("running_average_of_the_deviation",)


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mu = x.mean(axis=0)
    std = np.sqrt(x.var(axis=0) + eps)
    out = gamma * (x - mu) / std + beta
    return (
        out,
        momentum * running_mean + (1 - momentum) * mu,
        momentum * running_var + (1 - momentum) * std,
    )
