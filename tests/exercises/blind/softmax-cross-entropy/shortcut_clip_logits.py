"""Shortcut: clips the logits to [-700, 700] so the naive exp cannot overflow, instead of log-sum-exp."""

import numpy as np


def softmax_cross_entropy(logits, labels):
    z = np.clip(np.atleast_2d(logits), -700.0, 700.0)
    y = np.atleast_1d(labels)
    n = z.shape[0]
    e = np.exp(z)
    p = e / e.sum(axis=-1, keepdims=True)
    loss = -np.log(np.maximum(p[np.arange(n), y], 1e-300)).mean()
    grad = p.copy()
    grad[np.arange(n), y] -= 1.0
    return float(loss), (grad / n).reshape(np.shape(logits))
