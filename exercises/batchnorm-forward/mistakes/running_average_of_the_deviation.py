"""running_var moved towards the standard deviation the batch is divided by, not its variance."""

import numpy as np

HINT = (
    "Your output is right, but the running variance moves towards the batch's standard "
    "deviation (the square root you divide by) instead of its variance: running_var "
    "averages variances, so move it towards the batch's biased variance itself, without the "
    "root and without eps."
)


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mean = x.mean(axis=0)
    deviation = np.sqrt(x.var(axis=0) + eps)
    out = gamma * (x - mean) / deviation + beta
    new_mean = momentum * running_mean + (1 - momentum) * mean
    new_var = momentum * running_var + (1 - momentum) * deviation
    return out, new_mean, new_var
