"""Takes the statistics over axis=1, right for (N, D) only: wrong for 3-d input and raises for 1-d."""

import numpy as np

RIGHT_DIAGNOSES = ("statistics_over_axis_one",)


def layer_norm(x, gamma, beta, eps):
    mu = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True)
    return gamma * (x - mu) / np.sqrt(var + eps) + beta
