"""The variance divided by D - 1 (ddof=1) instead of D."""

import numpy as np

HINT = ("Your normalised values are slightly too small, by a factor √((D - 1)/D) (0.87 for D = 4, "
        "before gamma and beta): layer normalisation divides the sum of "
        "squared deviations by D, the number of features (np.var's default, ddof=0), not by "
        "D - 1. The unbiased estimate is for a sample of a population; here the row is all "
        "there is.")


def layer_norm(x, gamma, beta, eps):
    mean = x.mean(axis=-1, keepdims=True)
    # Written out as x.var(ddof=1) computes it, which on a single feature also warns through
    # Python's warnings rather than numpy's error state.
    variance = ((x - mean) ** 2).sum(axis=-1, keepdims=True) / (x.shape[-1] - 1)
    return gamma * (x - mean) / np.sqrt(variance + eps) + beta
