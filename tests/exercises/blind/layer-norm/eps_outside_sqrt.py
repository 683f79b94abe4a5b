"""Adds eps to the standard deviation instead of to the variance under the square root."""

RIGHT_DIAGNOSES = ("eps_outside_the_root",)


def layer_norm(x, gamma, beta, eps):
    mu = x.mean(axis=-1, keepdims=True)
    sigma = x.std(axis=-1, keepdims=True)
    return gamma * (x - mu) / (sigma + eps) + beta
