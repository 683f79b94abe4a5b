"""Shifts every row by the maximum of the whole batch instead of each row's own maximum."""

import numpy as np

RIGHT_DIAGNOSES = ("whole_array",)


def softmax_cross_entropy(logits, labels):
    z = np.atleast_2d(logits)
    y = np.atleast_1d(labels)
    n = z.shape[0]
    shifted = z - z.max()
    e = np.exp(shifted)
    s = e.sum(axis=-1, keepdims=True)
    log_p = shifted - np.log(s)
    loss = -log_p[np.arange(n), y].mean()
    grad = e / s
    grad[np.arange(n), y] -= 1.0
    return float(loss), (grad / n).reshape(np.shape(logits))
