"""Batch norm that takes the statistics over axis 1 (each example's features) with keepdims."""
import numpy as np


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mu = x.mean(axis=1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=1, keepdims=True)
    x_hat = (x - mu) / np.sqrt(var + eps)
    out = gamma * x_hat + beta
    new_mean = momentum * running_mean + (1 - momentum) * mu
    new_var = momentum * running_var + (1 - momentum) * var
    return out, new_mean, new_var


RIGHT_DIAGNOSES = ("per_example_statistics_broadcast_into_running",)
