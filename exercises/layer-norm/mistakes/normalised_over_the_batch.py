"""The mean and variance taken over the batch axis (batch normalisation), not over the
features of each vector."""

import numpy as np

HINT = ("You normalise each feature over the batch (axis 0): that is batch normalisation. "
        "Layer normalisation takes the mean and variance of each vector over its own features, "
        "the last axis (axis=-1, keepdims=True), so that each example is normalised on its own.")


def layer_norm(x, gamma, beta, eps):
    mean = x.mean(axis=0, keepdims=True)
    variance = x.var(axis=0, keepdims=True)
    return gamma * (x - mean) / np.sqrt(variance + eps) + beta
