"""Sums the losses over the batch (and the gradient with them) instead of averaging: N times too large."""
import numpy as np


def softmax_cross_entropy(logits, labels):
    z = np.atleast_2d(logits)
    y = np.atleast_1d(labels)
    rows = np.arange(z.shape[0])
    shifted = z - z.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    loss = -log_p[rows, y].sum()
    grad = np.exp(log_p)
    grad[rows, y] -= 1.0
    return float(loss), grad.reshape(np.shape(logits))


RIGHT_DIAGNOSES = ("summed_over_the_batch",)
