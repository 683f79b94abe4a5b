# expect: verdict=failed score=0 diagnosis=none
"""A learner who takes the gradient by the complex step a column at a time (the examples of a
batch are decoupled: perturbing class k in every row at once gives column k of every row's
gradient): exact to rounding, so no tolerance tells it apart; refused by the rule against
complex numbers before it runs."""

import numpy as np


def row_losses(logits, labels):
    shifted = logits - logits.real.max(axis=-1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -np.take_along_axis(log_probs, np.asarray(labels)[..., None], axis=-1)[..., 0]


def softmax_cross_entropy(logits, labels, step=1e-20):
    logits = np.asarray(logits, dtype=float)
    count = np.size(labels)
    grad = np.zeros_like(logits)
    for k in range(logits.shape[-1]):
        up = logits.astype(complex)
        up[..., k] += 1j * step
        grad[..., k] = row_losses(up, labels).imag / step / count
    return float(np.mean(row_losses(logits, labels))), grad
