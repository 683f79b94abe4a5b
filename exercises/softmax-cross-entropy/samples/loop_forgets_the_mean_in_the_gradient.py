# expect: verdict=failed score=11 diagnosis=gradient_not_averaged
"""A learner who computes each example in a loop, averages the losses, and keeps each row's
gradient as it is."""

import numpy as np


def softmax_cross_entropy(logits, labels):
    rows = np.atleast_2d(logits)
    targets = np.atleast_1d(labels)
    losses = []
    grad = np.zeros_like(rows)
    for i in range(rows.shape[0]):
        z = rows[i] - np.max(rows[i])
        p = np.exp(z) / np.sum(np.exp(z))
        losses.append(np.log(np.sum(np.exp(z))) - z[targets[i]])
        grad[i] = p
        grad[i, targets[i]] -= 1.0
    return float(np.mean(losses)), grad.reshape(np.shape(logits))
