"""Subtracts the one-hot with p[:, labels] -= 1, which hits every row at every label's column."""
import numpy as np


def softmax_cross_entropy(logits, labels):
    z = np.atleast_2d(logits)
    y = np.atleast_1d(labels)
    n = z.shape[0]
    shifted = z - z.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    loss = -np.mean(log_p[np.arange(n), y])
    p = np.exp(log_p)
    p[:, y] -= 1
    return float(loss), (p / n).reshape(np.shape(logits))


RIGHT_DIAGNOSES = ("onehot_at_every_label_in_every_row",)
