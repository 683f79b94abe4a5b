"""Correct: two-pass statistics with einsum and the update written as np.average with weights."""
import numpy as np


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    n = x.shape[0]
    centred = x - np.einsum("nd->d", x) / n
    var = np.einsum("nd,nd->d", centred, centred) / n
    scale = gamma / np.sqrt(var + eps)
    out = centred * scale + beta
    weights = [momentum, 1.0 - momentum]
    new_mean = np.average(np.stack([running_mean, x.mean(axis=0)]), axis=0, weights=weights)
    new_var = np.average(np.stack([running_var, var]), axis=0, weights=weights)
    return out, new_mean, new_var
