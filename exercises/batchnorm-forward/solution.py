"""Reference: batch normalisation in training mode, statistics over the batch axis 0."""

import numpy as np


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    """Normalise each feature by the batch's mean and (biased) variance, then scale and shift;
    return the output and the running averages moved towards the batch's statistics."""
    mean = x.mean(axis=0)
    var = x.var(axis=0)
    x_hat = (x - mean) / np.sqrt(var + eps)
    out = gamma * x_hat + beta
    new_mean = momentum * running_mean + (1 - momentum) * mean
    new_var = momentum * running_var + (1 - momentum) * var
    return out, new_mean, new_var
