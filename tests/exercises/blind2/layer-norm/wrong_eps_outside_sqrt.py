"""Adds eps to the standard deviation, sqrt(var) + eps, instead of under the square root."""


def layer_norm(x, gamma, beta, eps):
    mu = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return gamma * (x - mu) / (std + eps) + beta


RIGHT_DIAGNOSES = ("eps_outside_the_root",)
