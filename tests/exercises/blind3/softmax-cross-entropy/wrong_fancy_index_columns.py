"""Picks the right-class log-probabilities with log_p[:, labels], an (N, N) table, and averages all of it."""
import numpy as np


def softmax_cross_entropy(logits, labels):
    z = np.atleast_2d(logits)
    y = np.atleast_1d(labels)
    n = z.shape[0]
    m = z.max(axis=1, keepdims=True)
    log_p = z - m - np.log(np.exp(z - m).sum(axis=1, keepdims=True))
    loss = -log_p[:, y].mean()
    d = np.exp(log_p)
    d[np.arange(n), y] -= 1
    return float(loss), (d / n).reshape(np.shape(logits))


RIGHT_DIAGNOSES = ("every_label_in_every_row_of_the_loss",)
