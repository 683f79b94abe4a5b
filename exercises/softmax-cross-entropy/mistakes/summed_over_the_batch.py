"""The loss and its gradient summed over the batch instead of averaged."""

import numpy as np

HINT = ("Your loss is the sum of the examples' losses, N times the mean the statement asks for "
        "(and your gradient N times too large with it). Divide both by the number of examples, "
        "so that the loss does not grow with the batch size.")


def softmax_cross_entropy(logits, labels):
    z = logits - logits.max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    onehot = np.eye(logits.shape[-1])[labels]
    return float(-np.sum(onehot * log_p)), np.exp(log_p) - onehot
