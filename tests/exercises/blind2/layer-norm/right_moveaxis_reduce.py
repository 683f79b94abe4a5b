"""Correct: moves the features first and normalises with np.reciprocal and explicit sums."""
import numpy as np


def layer_norm(x, gamma, beta, eps):
    xt = np.moveaxis(np.asarray(x, dtype=np.float64), -1, 0)
    d = xt.shape[0]
    centred = xt - np.add.reduce(xt, axis=0) / d
    var = np.add.reduce(centred * centred, axis=0) / d
    inv = np.reciprocal(np.sqrt(var + eps))
    normed = np.moveaxis(centred * inv, 0, -1)
    return normed * gamma + beta
