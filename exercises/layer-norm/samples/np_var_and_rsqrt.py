# expect: verdict=passed score=25 diagnosis=none
"""Another correct method: np.var (which centres before squaring), one reciprocal square root
per vector, and the scale folded into it."""

import numpy as np


def layer_norm(x, gamma, beta, eps):
    x = np.asarray(x, dtype=np.float64)
    inv = 1.0 / np.sqrt(np.var(x, axis=-1, keepdims=True) + eps)
    return (x - np.mean(x, axis=-1, keepdims=True)) * inv * gamma + beta
