# expect: verdict=timeout score=1 diagnosis=none
"""A learner who takes the gradient by forward differences a column at a time: the examples of a
batch are decoupled, so perturbing class k in every row at once gives column k of every row's
gradient from one loss per class. Off by 1e-6 where the logits are large, and 1000 losses of
256 rows for the hidden test 'large batch' (1000 classes) do not finish within its limit of 1 s."""

import numpy as np


def row_losses(logits, labels):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -np.take_along_axis(log_probs, np.asarray(labels)[..., None], axis=-1)[..., 0]


def softmax_cross_entropy(logits, labels, step=1.5e-8):
    logits = np.asarray(logits, dtype=float)
    count = np.size(labels)
    base = row_losses(logits, labels)
    grad = np.zeros_like(logits)
    for k in range(logits.shape[-1]):
        up = logits.copy()
        up[..., k] += step
        grad[..., k] = (row_losses(up, labels) - base) / step / count
    return float(np.mean(row_losses(logits, labels))), grad
