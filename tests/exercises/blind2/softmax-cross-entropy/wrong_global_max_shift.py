"""Subtracts the batch's single largest logit instead of each row's: rows far below it underflow to log(0)."""
import numpy as np


def softmax_cross_entropy(logits, labels):
    z = np.atleast_2d(logits)
    y = np.atleast_1d(labels)
    n = z.shape[0]
    shifted = z - z.max()
    e = np.exp(shifted)
    log_p = shifted - np.log(e.sum(axis=1, keepdims=True))
    loss = -log_p[np.arange(n), y].mean()
    p = e / e.sum(axis=1, keepdims=True)
    p[np.arange(n), y] -= 1
    return float(loss), (p / n).reshape(np.shape(logits))

RIGHT_DIAGNOSES = ("whole_array",)
