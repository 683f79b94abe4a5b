"""Treats a 1-d logits vector as a batch of C one-logit examples (axis=-1 with N taken as len)."""

import numpy as np

RIGHT_DIAGNOSES = ("count_from_the_first_axis",)


def softmax_cross_entropy(logits, labels):
    n = len(logits)
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    onehot = np.eye(logits.shape[-1])[labels]
    loss = -(onehot * log_p).sum() / n
    grad = (np.exp(log_p) - onehot) / n
    return float(loss), grad
