"""The mean and variance of each row taken without keeping their axis: shape (N,) broadcast
along the features, so it fails unless N equals D or D is 1."""

import numpy as np

HINT = (
    "Your per-row mean and variance lose the axis they were taken along: for x of shape "
    "(N, D) they have shape (N,), and broadcasting lines them up with the features, not with "
    "the rows (an error unless N equals D, and an (N, N) result for D = 1). Keep the axis: "
    "keepdims=True, or index the statistics with [..., None]."
)


def layer_norm(x, gamma, beta, eps):
    mean = np.mean(x, axis=-1)
    variance = np.var(x, axis=-1)
    return gamma * (x - mean) / np.sqrt(variance + eps) + beta
