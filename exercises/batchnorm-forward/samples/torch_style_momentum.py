# expect: verdict=failed score=2 diagnosis=momentum_on_the_batch
"""A learner who carries over PyTorch's momentum: the new batch weighted by momentum."""

import numpy as np


def batchnorm_forward(x, gamma, beta, running_mean, running_var, momentum, eps):
    mu = np.mean(x, axis=0)
    sigma2 = np.mean((x - mu) ** 2, axis=0)
    out = gamma * (x - mu) / np.sqrt(sigma2 + eps) + beta
    running_mean = momentum * mu + (1 - momentum) * running_mean
    running_var = momentum * sigma2 + (1 - momentum) * running_var
    return out, running_mean, running_var
