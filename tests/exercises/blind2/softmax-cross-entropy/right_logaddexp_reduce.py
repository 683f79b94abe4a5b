"""Correct: the log-sum-exp from np.logaddexp.reduce and the one-hot from np.eye."""
import numpy as np


def softmax_cross_entropy(logits, labels):
    z = np.asarray(logits, dtype=np.float64)
    batch = z.reshape(-1, z.shape[-1])
    y = np.asarray(labels).reshape(-1)
    n, c = batch.shape
    lse = np.logaddexp.reduce(batch, axis=1, keepdims=True)
    log_p = batch - lse
    onehot = np.eye(c)[y]
    loss = -(onehot * log_p).sum() / n
    grad = (np.exp(log_p) - onehot) / n
    return float(loss), grad.reshape(z.shape)
