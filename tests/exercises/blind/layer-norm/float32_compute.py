"""Computes in float32 to save memory, then casts back to float64."""

import numpy as np

RIGHT_DIAGNOSES = ("single_precision",)


def layer_norm(x, gamma, beta, eps):
    x32 = x.astype(np.float32)
    mu = x32.mean(axis=-1, keepdims=True)
    var = ((x32 - mu) ** 2).mean(axis=-1, keepdims=True)
    out = gamma.astype(np.float32) * (x32 - mu) / np.sqrt(var + np.float32(eps)) + beta.astype(
        np.float32
    )
    return out.astype(np.float64)
