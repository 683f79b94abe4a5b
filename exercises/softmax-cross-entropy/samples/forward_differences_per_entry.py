# expect: verdict=timeout score=1 diagnosis=none
"""A learner who skips the derivation: the loss computed stably, its gradient by forward
differences at the step sqrt(eps) = 1.5e-8, one loss per logit: off by 1e-6 on the public test
'one example with large logits', and the hidden test 'large batch' (256000 logits) stops it at
its limit of 1 s."""


import numpy as np


def mean_loss(logits, labels):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(log_probs, np.asarray(labels)[..., None], axis=-1)
    return float(-picked.mean())


def softmax_cross_entropy(logits, labels, eps=1.5e-8):
    logits = np.array(logits, dtype=float)  # a copy: the input stays as given
    base = mean_loss(logits, labels)
    grad = np.zeros_like(logits)
    for i in np.ndindex(logits.shape):
        old = logits[i]
        logits[i] = old + eps
        up = mean_loss(logits, labels)
        logits[i] = old
        grad[i] = (up - base) / eps
    return mean_loss(logits, labels), grad
