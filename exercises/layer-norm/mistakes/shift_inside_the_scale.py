"""The shift added before the scale: gamma * (xhat + beta)."""

import numpy as np

HINT = (
    "Your output is gamma times (the normalised value plus beta): beta was added before the "
    "scale, so it is scaled by gamma too. The statement scales the normalised value first "
    "and then adds beta: gamma * xhat + beta."
)


def layer_norm(x, gamma, beta, eps):
    centred = x - x.mean(axis=-1, keepdims=True)
    variance = np.mean(centred * centred, axis=-1, keepdims=True)
    return gamma * (centred / np.sqrt(variance + eps) + beta)
