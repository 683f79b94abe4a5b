"""The right-class log-probabilities picked with the labels alone as the column index: an
(N, N) table of every label in every row, averaged whole."""

import numpy as np

HINT = (
    "Your loss averages the log-probability of every example's label in every row (an N x N "
    "table), not only each row's own label: it is right for one example or when every label "
    "is the same. Pair each row with its own label (row i, column labels[i]), for instance "
    "with np.arange(N) as the row index, and average those N values."
)


def softmax_cross_entropy(logits, labels):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    count = np.size(labels)
    table = np.take(np.reshape(log_p, (count, -1)), np.ravel(labels), axis=1)
    onehot = np.eye(logits.shape[-1])[labels]
    return float(-table.mean()), (np.exp(log_p) - onehot) / count
