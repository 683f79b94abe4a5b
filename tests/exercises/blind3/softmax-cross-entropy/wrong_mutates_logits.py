"""Stable softmax cross-entropy that subtracts the row maximum from logits in place."""
import numpy as np


def softmax_cross_entropy(logits, labels):
    z = logits if logits.ndim == 2 else logits[None, :]
    y = np.atleast_1d(labels)
    n = z.shape[0]
    z -= z.max(axis=1, keepdims=True)
    lse = np.log(np.exp(z).sum(axis=1, keepdims=True))
    log_p = z - lse
    loss = -log_p[np.arange(n), y].mean()
    d = np.exp(log_p)
    d[np.arange(n), y] -= 1
    return float(loss), (d / n).reshape(logits.shape)


RIGHT_DIAGNOSES = ("changed_input",)
