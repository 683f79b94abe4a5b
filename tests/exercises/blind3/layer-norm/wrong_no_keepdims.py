"""Layer norm over the last axis but without keepdims, so the (N,) statistics broadcast against the features."""
import numpy as np


def layer_norm(x, gamma, beta, eps):
    mu = x.mean(axis=-1)
    var = x.var(axis=-1)
    return gamma * (x - mu) / np.sqrt(var + eps) + beta


RIGHT_DIAGNOSES = ("statistics_lose_their_axis",)
