"""The batch size taken as the length of the first axis, which for one example is its number of
classes."""

import numpy as np

HINT = (
    "Your loss and gradient are right for a batch but divided by the number of classes for "
    "a single example (a 1-d vector of logits): the length of its first axis is not a batch "
    "size there. Divide by the number of examples, the number of labels (1 for a single "
    "example)."
)


def softmax_cross_entropy(logits, labels):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    onehot = np.eye(logits.shape[-1])[labels]
    count = len(logits)
    loss = -np.sum(onehot * log_probs) / count
    return float(loss), (np.exp(log_probs) - onehot) / count
