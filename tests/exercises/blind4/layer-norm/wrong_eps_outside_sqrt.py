"""Mistake: adds eps to the standard deviation instead of to the variance under the square root."""


def layer_norm(x, gamma, beta, eps):
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return gamma * (x - mean) / (std + eps) + beta


RIGHT_DIAGNOSES = ("eps_outside_the_root",)
