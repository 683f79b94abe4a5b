"""Shifts by the maximum but takes np.log of the probability, which is -inf when p underflows."""

import numpy as np

RIGHT_DIAGNOSES = ("log_of_the_probability",)


def softmax_cross_entropy(logits, labels):
    z = np.atleast_2d(logits)
    y = np.atleast_1d(labels)
    n = z.shape[0]
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    loss = -np.mean(np.log(p[np.arange(n), y]))
    grad = p.copy()
    grad[np.arange(n), y] -= 1.0
    return float(loss), (grad / n).reshape(np.shape(logits))
