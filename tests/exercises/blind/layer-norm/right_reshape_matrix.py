"""Correct: flattens the leading axes to rows, normalises with matrix products, reshapes back."""

import numpy as np


def layer_norm(x, gamma, beta, eps):
    d = x.shape[-1]
    rows = x.reshape(-1, d)
    ones = np.full((d, 1), 1.0 / d)
    mu = rows @ ones
    centred = rows - mu
    var = (centred * centred) @ ones
    out = centred / np.sqrt(var + eps) * gamma + beta
    return out.reshape(x.shape)
