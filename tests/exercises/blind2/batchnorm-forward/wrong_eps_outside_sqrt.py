"""Adds eps to the standard deviation, sqrt(var) + eps, instead of to the variance under the root."""
import numpy as np


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mu = x.mean(axis=0)
    var = x.var(axis=0)
    x_hat = (x - mu) / (np.sqrt(var) + eps)
    out = gamma * x_hat + beta
    return out, momentum * running_mean + (1 - momentum) * mu, momentum * running_var + (1 - momentum) * var


RIGHT_DIAGNOSES = ("eps_outside_the_root",)
