"""Takes the mean and variance over the features (axis 1, layer-norm style) instead of the batch."""

import numpy as np

RIGHT_DIAGNOSES = ("statistics_over_features",)


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mu = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True)
    out = gamma * (x - mu) / np.sqrt(var + eps) + beta
    new_mean = momentum * running_mean + (1 - momentum) * x.mean(axis=0)
    new_var = momentum * running_var + (1 - momentum) * x.var(axis=0)
    return out, new_mean, new_var
