"""Layer norm looping over the vectors of x flattened to (rows, D), with dot products for the sums."""
import numpy as np


def layer_norm(x, gamma, beta, eps):
    d = x.shape[-1]
    flat = x.reshape(-1, d)
    out = np.empty(flat.shape)
    for r in range(flat.shape[0]):
        centred = flat[r] - flat[r].sum() / d
        var = np.dot(centred, centred) / d
        out[r] = gamma * centred / np.sqrt(var + eps) + beta
    return out.reshape(x.shape)
