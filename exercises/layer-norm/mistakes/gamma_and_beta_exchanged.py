"""beta used as the scale and gamma as the shift."""

import numpy as np

HINT = ("You scale by beta and shift by gamma: gamma multiplies the normalised values and beta "
        "is added after (out = gamma * x_hat + beta).")


def layer_norm(x, gamma, beta, eps):
    mean = x.mean(axis=-1, keepdims=True)
    variance = x.var(axis=-1, keepdims=True)
    return beta * (x - mean) / np.sqrt(variance + eps) + gamma
