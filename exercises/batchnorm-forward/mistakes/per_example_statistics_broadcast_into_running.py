"""Each example normalised over its own features, and those per-example statistics (a column
of N) fed to the running averages, which broadcast to an (N, D) table."""

import numpy as np

HINT = (
    "Your statistics are one mean and variance per example, taken over its features (axis 1), "
    "which is layer normalisation, and your running averages come back as an (N, D) table: a "
    "column of N per-example statistics broadcast against the (D,) running arrays. Batch "
    "normalisation takes each feature's mean and variance over the examples of the batch "
    "(axis 0, arrays of shape (D,)), normalises with those and moves the running averages "
    "towards them."
)


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    per_row_mean = np.mean(x, axis=-1)[:, np.newaxis]
    per_row_var = np.var(x, axis=-1)[:, np.newaxis]
    out = beta + gamma * (x - per_row_mean) / np.sqrt(per_row_var + eps)
    new_mean = running_mean + (1 - momentum) * (per_row_mean - running_mean)
    new_var = running_var + (1 - momentum) * (per_row_var - running_var)
    return out, new_mean, new_var
