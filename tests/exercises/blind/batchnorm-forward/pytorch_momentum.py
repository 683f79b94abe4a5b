"""Uses PyTorch's momentum convention: momentum weighs the new batch statistics, not the old average."""

import numpy as np

RIGHT_DIAGNOSES = ("momentum_on_the_batch",)


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mu = x.mean(axis=0)
    var = x.var(axis=0)
    out = gamma * (x - mu) / np.sqrt(var + eps) + beta
    new_mean = (1 - momentum) * running_mean + momentum * mu
    new_var = (1 - momentum) * running_var + momentum * var
    return out, new_mean, new_var
