"""Uses the unbiased variance (ddof=1, divided by D - 1) instead of the biased one."""
import numpy as np


def layer_norm(x, gamma, beta, eps):
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, ddof=1, keepdims=True)
    return gamma * (x - mu) / np.sqrt(var + eps) + beta


RIGHT_DIAGNOSES = ("unbiased_variance",)
