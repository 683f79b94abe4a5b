"""Divides the loss by N but forgets to divide the gradient by N."""

import numpy as np

RIGHT_DIAGNOSES = ("gradient_not_averaged",)


def softmax_cross_entropy(logits, labels):
    z = np.atleast_2d(logits)
    y = np.atleast_1d(labels)
    n = z.shape[0]
    shifted = z - z.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    loss = -log_p[np.arange(n), y].sum() / n
    grad = np.exp(log_p)
    grad[np.arange(n), y] -= 1.0
    return float(loss), grad.reshape(np.shape(logits))
