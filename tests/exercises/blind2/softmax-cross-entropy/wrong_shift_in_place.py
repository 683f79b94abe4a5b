"""Subtracts the row maximum from logits in place (-=), which changes the caller's array."""
import numpy as np


def softmax_cross_entropy(logits, labels):
    z = logits.reshape(-1, logits.shape[-1])
    y = np.atleast_1d(labels)
    n = z.shape[0]
    z -= z.max(axis=1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    loss = -log_p[np.arange(n), y].mean()
    p = np.exp(log_p)
    p[np.arange(n), y] -= 1
    return float(loss), (p / n).reshape(logits.shape)


RIGHT_DIAGNOSES = ("changed_input",)
