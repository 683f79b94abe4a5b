"""Stable softmax cross-entropy that sums the losses and gradients over the batch instead of averaging."""
import numpy as np


def softmax_cross_entropy(logits, labels):
    z = np.atleast_2d(logits)
    y = np.atleast_1d(labels)
    n = z.shape[0]
    shifted = z - z.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    loss = -log_p[np.arange(n), y].sum()
    d = np.exp(log_p)
    d[np.arange(n), y] -= 1
    return float(loss), d.reshape(np.shape(logits))


RIGHT_DIAGNOSES = ("summed_over_the_batch",)
