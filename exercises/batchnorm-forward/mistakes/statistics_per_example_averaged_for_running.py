"""Each example normalised over its own features, and the running averages moved by the
average of those per-example statistics."""

import numpy as np

HINT = (
    "Your statistics are taken over the features of each example (one mean and variance per "
    "row), which is layer normalisation, and your running averages move towards their "
    "average over the examples. Batch normalisation takes each feature's mean and variance "
    "over the examples of the batch (axis 0, arrays of shape (D,)), normalises with those and "
    "moves the running averages towards those same arrays."
)


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    row_mean = x.mean(axis=1)[:, None]
    row_var = x.var(axis=1)[:, None]
    out = gamma * (x - row_mean) / np.sqrt(row_var + eps) + beta
    new_mean = momentum * running_mean + (1 - momentum) * np.mean(row_mean)
    new_var = momentum * running_var + (1 - momentum) * np.mean(row_var)
    return out, new_mean, new_var
