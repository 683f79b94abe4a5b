"""Takes the statistics over axis 0 (the batch, as in batch normalisation) instead of the features."""

import numpy as np

RIGHT_DIAGNOSES = ("normalised_over_the_batch",)


def layer_norm(x, gamma, beta, eps):
    mu = x.mean(axis=0, keepdims=True)
    var = x.var(axis=0, keepdims=True)
    return gamma * (x - mu) / np.sqrt(var + eps) + beta
