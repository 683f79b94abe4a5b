"""Correct: centred data, the variance by einsum over the batch, the output as one fused scale and shift."""

import numpy as np


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    n = x.shape[0]
    mu = np.einsum("nd->d", x) / n
    c = x - mu
    var = np.einsum("nd,nd->d", c, c) / n
    scale = gamma / np.sqrt(var + eps)
    out = c * scale + beta
    m = momentum
    return out, np.add(m * running_mean, (1 - m) * mu), np.add(m * running_var, (1 - m) * var)
