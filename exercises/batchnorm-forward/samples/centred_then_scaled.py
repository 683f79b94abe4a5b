# expect: verdict=passed score=23 diagnosis=none
"""Another correct method: centre once, the variance from the centred values, the inverse
standard deviation multiplied in, and gamma folded into it."""

import numpy as np


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    n = x.shape[0]
    mu = np.sum(x, axis=0) / n
    centred = x - mu
    var = np.sum(centred * centred, axis=0) / n
    inv_std = 1.0 / np.sqrt(var + eps)
    out = centred * (gamma * inv_std) + beta
    new_mean = running_mean + (1.0 - momentum) * (mu - running_mean)
    new_var = running_var + (1.0 - momentum) * (var - running_var)
    return out, new_mean, new_var
