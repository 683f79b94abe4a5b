"""Reference solution: layer normalisation over the last axis, with the variance computed
from the centred values (never as E[x^2] - E[x]^2, which cancels catastrophically)."""

import numpy as np


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    """Normalise each vector along the last axis to mean 0 and variance 1, then scale by gamma
    and shift by beta."""
    centred = x - x.mean(axis=-1, keepdims=True)
    variance = np.mean(centred * centred, axis=-1, keepdims=True)    # biased: divided by D
    return gamma * (centred / np.sqrt(variance + eps)) + beta
