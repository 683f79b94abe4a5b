"""Takes the mean and variance over axis 1 (per example, keepdims) instead of over the batch axis 0."""
import numpy as np


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    out = gamma * (x - mean) / np.sqrt(var + eps) + beta
    new_mean = momentum * running_mean + (1 - momentum) * mean.mean()
    new_var = momentum * running_var + (1 - momentum) * var.mean()
    return out, new_mean, new_var


RIGHT_DIAGNOSES = ("statistics_per_example_averaged_for_running",)
