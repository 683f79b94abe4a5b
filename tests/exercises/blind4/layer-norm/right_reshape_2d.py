"""Right: flattens the leading axes to a 2-D (rows, D) array, normalises with einsum, reshapes back."""
import numpy as np


def layer_norm(x, gamma, beta, eps):
    D = x.shape[-1]
    rows = np.reshape(x, (-1, D))
    centred = rows - np.einsum("nd->n", rows)[:, None] / D
    var = np.einsum("nd,nd->n", centred, centred) / D
    out = centred / np.sqrt(var + eps)[:, None] * gamma + beta
    return out.reshape(x.shape)
