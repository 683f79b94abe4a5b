"""The batch normalised with the updated running averages instead of its own statistics."""

import numpy as np

HINT = (
    "Your output normalises the batch with the running averages (once moved towards this "
    "batch's statistics), as at test time: in training, batch normalisation uses the "
    "batch's own mean and variance, and the running averages are only updated and returned "
    "for later."
)


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    new_mean = momentum * running_mean + (1 - momentum) * x.mean(axis=0)
    new_var = momentum * running_var + (1 - momentum) * x.var(axis=0)
    out = gamma * (x - new_mean) / np.sqrt(new_var + eps) + beta
    return out, new_mean, new_var
