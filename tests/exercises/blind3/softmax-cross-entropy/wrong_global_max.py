"""Shifts by the largest logit of the whole batch instead of each row's, so rows far below it underflow to log(0)."""
import numpy as np


def softmax_cross_entropy(logits, labels):
    z = np.atleast_2d(logits)
    y = np.atleast_1d(labels)
    n = z.shape[0]
    shifted = z - z.max()
    e = np.exp(shifted)
    p = e / e.sum(axis=1, keepdims=True)
    loss = -np.log(p[np.arange(n), y]).mean()
    p[np.arange(n), y] -= 1
    return float(loss), (p / n).reshape(np.shape(logits))


RIGHT_DIAGNOSES = ("whole_array",)
