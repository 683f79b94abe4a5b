"""The one-hot subtracted with the labels alone as the column index: every row gets 1
subtracted at every example's label, not at its own only."""

import numpy as np

HINT = (
    "Your gradient subtracts 1 in every row at the label of every example of the batch, not "
    "only at the row's own label: the one-hot was indexed by the labels alone, as columns of "
    "every row. Pair each row with its own label (row i, column labels[i]), for instance "
    "with np.arange(N) as the row index."
)


def softmax_cross_entropy(logits, labels):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    count = np.size(labels)
    loss = -np.sum(np.eye(logits.shape[-1])[labels] * log_p) / count
    # The mistake: a class is marked in every row as soon as any example has it.
    marked = np.isin(np.arange(logits.shape[-1]), labels)
    return float(loss), (np.exp(log_p) - marked) / count
