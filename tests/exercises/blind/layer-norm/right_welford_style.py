"""Correct: shifts each vector by its first feature before the moments (a shifted two-moment form)."""

import numpy as np


def layer_norm(x, gamma, beta, eps):
    shift = x[..., :1]
    d = x - shift
    mean_d = d.mean(axis=-1, keepdims=True)
    centred = d - mean_d
    var = np.einsum("...d,...d->...", centred, centred)[..., None] / x.shape[-1]
    return centred * (gamma / np.sqrt(var + eps)) + beta
