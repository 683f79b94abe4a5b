"""eps left out of the root, a zero standard deviation guarded by dividing by something else
(a constant row gives beta)."""

import numpy as np

HINT = (
    "Your values are those of a normalisation without eps: every row is divided by its bare "
    "standard deviation, a constant row left at beta. eps is no guard for zero variance only: "
    "it belongs in every row's denominator, added to the variance under the square root, "
    "sqrt(var + eps)."
)


def layer_norm(x, gamma, beta, eps):
    centred = x - x.mean(axis=-1, keepdims=True)
    std = np.sqrt((centred**2).mean(axis=-1, keepdims=True))
    normalised = np.divide(centred, std, out=np.zeros_like(centred), where=std > 0)
    return gamma * normalised + beta
