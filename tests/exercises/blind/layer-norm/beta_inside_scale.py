"""Applies the shift before the scale: gamma * (xhat + beta) instead of gamma * xhat + beta."""

import numpy as np

RIGHT_DIAGNOSES = ("shift_inside_the_scale",)


def layer_norm(x, gamma, beta, eps):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return gamma * ((x - mu) / np.sqrt(var + eps) + beta)
