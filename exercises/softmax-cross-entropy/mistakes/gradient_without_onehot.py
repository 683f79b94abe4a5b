"""The gradient taken as the softmax alone, forgetting the one-hot term of the right class."""

import numpy as np

HINT = ("Your gradient is the softmax probabilities, but the derivative of -log p_y with "
        "respect to the logits is p - onehot(y): subtract 1 at each example's right class "
        "(and divide by the batch size).")


def softmax_cross_entropy(logits, labels):
    z = logits - logits.max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    onehot = np.eye(logits.shape[-1])[labels]
    n = np.size(labels)
    return float(-np.sum(onehot * log_p) / n), np.exp(log_p) / n
