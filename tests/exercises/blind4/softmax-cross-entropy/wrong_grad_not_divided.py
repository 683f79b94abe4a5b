"""Mistake: the loss is the mean, but the gradient is p - onehot without dividing by N."""
import numpy as np


def softmax_cross_entropy(logits, labels):
    z = np.atleast_2d(logits)
    y = np.atleast_1d(labels)
    n = z.shape[0]
    shifted = z - z.max(axis=1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    loss = float(-logp[np.arange(n), y].mean())
    d = np.exp(logp)
    d[np.arange(n), y] -= 1
    return loss, d.reshape(np.shape(logits))


RIGHT_DIAGNOSES = ("gradient_not_averaged",)
