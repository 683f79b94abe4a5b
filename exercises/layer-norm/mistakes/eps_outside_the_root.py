"""eps added to the standard deviation instead of to the variance under the root."""

import numpy as np

HINT = ("You add eps to the standard deviation, sqrt(var) + eps; the statement adds it to the "
        "variance, sqrt(var + eps). The two differ little when the variance is large, and a lot "
        "when it is near eps or zero.")


def layer_norm(x, gamma, beta, eps):
    mean = x.mean(axis=-1, keepdims=True)
    std = np.sqrt(x.var(axis=-1, keepdims=True))
    return gamma * (x - mean) / (std + eps) + beta
