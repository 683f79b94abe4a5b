# expect: verdict=failed score=19 diagnosis=variance_from_moments
"""A learner who remembers Var[x] = E[x^2] - E[x]^2 and writes it with np.mean and np.square."""

import numpy as np


def layer_norm(x, gamma, beta, eps):
    mu = np.mean(x, axis=-1, keepdims=True)
    var = np.mean(np.square(x), axis=-1, keepdims=True) - np.square(mu)
    x_hat = (x - mu) / np.sqrt(var + eps)
    return gamma * x_hat + beta
