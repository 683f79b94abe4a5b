"""eps added to the standard deviation instead of the variance."""

import numpy as np

HINT = ("Your output differs for features whose spread is small: eps belongs inside the "
        "square root, (x - mean) / sqrt(var + eps), not added to the standard deviation.")


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mean = x.mean(axis=0)
    var = x.var(axis=0)
    out = gamma * (x - mean) / (np.sqrt(var) + eps) + beta
    return (out, momentum * running_mean + (1 - momentum) * mean,
            momentum * running_var + (1 - momentum) * var)
