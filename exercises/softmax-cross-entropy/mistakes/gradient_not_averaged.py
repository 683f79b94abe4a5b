"""The loss averaged over the batch, but its gradient left as each example's own: p - onehot,
not divided by the batch size."""

import numpy as np

HINT = ("Your loss is right, but your gradient is N times too large for a batch of N: the loss "
        "is the mean of the examples' losses, so each example's gradient p - onehot is divided "
        "by N as well.")


def softmax_cross_entropy(logits, labels):
    z = logits - logits.max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    onehot = np.eye(logits.shape[-1])[labels]
    n = np.size(labels)
    return float(-np.sum(onehot * log_p) / n), np.exp(log_p) - onehot
