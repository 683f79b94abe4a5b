"""The variance as E[x^2] - E[x]^2: right in exact arithmetic, but for values of 1e6 with a
spread of 1 the two terms agree in their first 12 digits and their difference is rounding."""

import numpy as np

HINT = ("Your result is right for values near 0 but wrong when the values share a large offset "
        "(1e6 plus small differences): E[x^2] - E[x]^2 subtracts two numbers of about 1e12 "
        "that agree in almost every digit, and what is left is rounding error. Subtract the "
        "mean first and average the squares of the centred values.")


def layer_norm(x, gamma, beta, eps):
    mean = x.mean(axis=-1, keepdims=True)
    variance = (x * x).mean(axis=-1, keepdims=True) - mean * mean
    return gamma * (x - mean) / np.sqrt(variance + eps) + beta
