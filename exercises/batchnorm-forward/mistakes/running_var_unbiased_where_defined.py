"""The running variance fed the unbiased variance wherever it is defined (N > 1), the biased
one for a batch of one: the same slip as running_var_unbiased, spelled so that a batch of one
gives the right result."""

import numpy as np

HINT = ("Your output and running mean are right, but your running variance averages the "
        "unbiased variance (divided by N - 1). Some libraries do that; here the running "
        "variance averages the same biased variance (divided by N) that normalised the batch.")


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mean = x.mean(axis=0)
    var = x.var(axis=0)
    out = gamma * (x - mean) / np.sqrt(var + eps) + beta
    n = x.shape[0]
    fed = var * n / (n - 1) if n > 1 else var
    new_mean = momentum * running_mean + (1 - momentum) * mean
    return out, new_mean, momentum * running_var + (1 - momentum) * fed
