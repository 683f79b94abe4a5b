"""The variance divided by N - 1 (np.var(ddof=1), pandas' and PyTorch's running variance)."""

import numpy as np

HINT = ("Your variance is the unbiased one, divided by N - 1. Batch normalisation normalises "
        "by the batch's own variance, divided by N (np.var's default, ddof=0), and the "
        "statement keeps that same variance for the running average.")


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mean = x.mean(axis=0)
    # Written out as x.var(ddof=1) computes it, which on a batch of one also warns through
    # Python's warnings rather than numpy's error state.
    var = ((x - mean) ** 2).sum(axis=0) / (x.shape[0] - 1)
    out = gamma * (x - mean) / np.sqrt(var + eps) + beta
    return (out, momentum * running_mean + (1 - momentum) * mean,
            momentum * running_var + (1 - momentum) * var)
