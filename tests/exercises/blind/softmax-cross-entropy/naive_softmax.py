"""Computes the softmax without subtracting the row maximum, so large logits overflow to nan."""

import numpy as np

RIGHT_DIAGNOSES = ("unshifted_softmax",)


def softmax_cross_entropy(logits, labels):
    z = np.atleast_2d(logits)
    y = np.atleast_1d(labels)
    n = z.shape[0]
    e = np.exp(z)
    p = e / e.sum(axis=-1, keepdims=True)
    loss = -np.log(p[np.arange(n), y]).mean()
    grad = p.copy()
    grad[np.arange(n), y] -= 1
    return float(loss), (grad / n).reshape(logits.shape)
