"""Promotes one example to a batch with atleast_2d but returns dlogits of shape (1, C) instead of (C,)."""
import numpy as np


def softmax_cross_entropy(logits, labels):
    z = np.atleast_2d(logits)
    y = np.atleast_1d(labels)
    n = z.shape[0]
    m = z.max(axis=1, keepdims=True)
    lse = m + np.log(np.sum(np.exp(z - m), axis=1, keepdims=True))
    p = np.exp(z - lse)
    loss = np.mean(lse[:, 0] - z[np.arange(n), y])
    p[np.arange(n), y] -= 1
    return float(loss), p / n


RIGHT_DIAGNOSES = ("one_example_kept_as_a_batch",)
