"""Each example normalised over its own features (axis 1): layer normalisation."""

import numpy as np

HINT = ("Your statistics are taken over the features of each example (axis 1), which is layer "
        "normalisation. Batch normalisation takes each feature's mean and variance over the "
        "examples of the batch: axis 0, giving arrays of shape (D,).")


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mean = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True)
    out = gamma * (x - mean) / np.sqrt(var + eps) + beta
    return (out, momentum * running_mean + (1 - momentum) * x.mean(axis=0),
            momentum * running_var + (1 - momentum) * x.var(axis=0))
