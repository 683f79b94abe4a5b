"""momentum taken as the weight of the new batch (PyTorch's convention)."""

import numpy as np

HINT = ("Your running averages weigh the batch by momentum and the old averages by "
        "1 - momentum. Here momentum is the weight of the old running averages: "
        "momentum * running + (1 - momentum) * batch statistic (PyTorch names the other "
        "convention momentum too).")


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mean = x.mean(axis=0)
    var = x.var(axis=0)
    out = gamma * (x - mean) / np.sqrt(var + eps) + beta
    return (out, (1 - momentum) * running_mean + momentum * mean,
            (1 - momentum) * running_var + momentum * var)
