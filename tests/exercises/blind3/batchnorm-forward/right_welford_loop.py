"""Batch norm with the mean and variance accumulated row by row with Welford's online algorithm."""
import numpy as np


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    n_rows, d = x.shape
    mean = np.zeros(d)
    m2 = np.zeros(d)
    for count, row in enumerate(x, start=1):
        delta = row - mean
        mean = mean + delta / count
        m2 = m2 + delta * (row - mean)
    var = m2 / n_rows
    inv_std = 1.0 / np.sqrt(var + eps)
    out = (x - mean) * (gamma * inv_std) + beta
    new_mean = momentum * running_mean + (1 - momentum) * mean
    new_var = momentum * running_var + (1 - momentum) * var
    return out, new_mean, new_var
