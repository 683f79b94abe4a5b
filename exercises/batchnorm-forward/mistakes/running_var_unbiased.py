"""Normalised with the biased variance, but the running variance fed the unbiased one (as
PyTorch does)."""

import numpy as np

HINT = ("Your output and running mean are right, but your running variance averages the "
        "unbiased variance (divided by N - 1). Some libraries do that; here the running "
        "variance averages the same biased variance (divided by N) that normalised the batch.")


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mean = x.mean(axis=0)
    var = x.var(axis=0)
    out = gamma * (x - mean) / np.sqrt(var + eps) + beta
    n = x.shape[0]
    return (out, momentum * running_mean + (1 - momentum) * mean,
            momentum * running_var + (1 - momentum) * var * n / (n - 1))
