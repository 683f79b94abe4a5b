"""Shortcut: subtracts one global mean of the whole array before the one-pass variance formula."""

import numpy as np


def layer_norm(x, gamma, beta, eps):
    y = x - x.mean()
    mu = y.mean(axis=-1, keepdims=True)
    var = (y * y).mean(axis=-1, keepdims=True) - mu * mu
    return gamma * (y - mu) / np.sqrt(np.maximum(var, 0.0) + eps) + beta
