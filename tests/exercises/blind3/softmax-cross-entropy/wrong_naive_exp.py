"""Softmax cross-entropy straight from the definition, without subtracting the maximum: overflows for large logits."""
import numpy as np


def softmax_cross_entropy(logits, labels):
    z = np.atleast_2d(logits)
    y = np.atleast_1d(labels)
    n = z.shape[0]
    e = np.exp(z)
    p = e / e.sum(axis=1, keepdims=True)
    loss = -np.mean(np.log(p[np.arange(n), y]))
    d = p.copy()
    d[np.arange(n), y] -= 1
    return float(loss), (d / n).reshape(np.shape(logits))


RIGHT_DIAGNOSES = ("unshifted_softmax",)
