"""var = E[x^2] - E[x]^2: exact on paper, cancellation for features far from zero."""

import numpy as np

HINT = ("Your variance is wrong for features whose mean is large compared with their spread. "
        "E[x^2] - E[x]^2 subtracts two nearly equal large numbers and loses most digits (it "
        "can even turn negative); compute the variance from the centred values, "
        "mean((x - mean)^2), as np.var does.")


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mean = x.mean(axis=0)
    var = (x**2).mean(axis=0) - mean**2
    out = gamma * (x - mean) / np.sqrt(var + eps) + beta
    return (out, momentum * running_mean + (1 - momentum) * mean,
            momentum * running_var + (1 - momentum) * var)
