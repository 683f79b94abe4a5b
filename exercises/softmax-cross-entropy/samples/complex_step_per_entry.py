# expect: verdict=failed score=0 diagnosis=none
"""A learner who skips the derivation with the complex step, L(z + i h) of each logit z: exact to
rounding, so no tolerance tells it apart; refused by the rule against complex numbers before it
runs."""


import numpy as np


def mean_loss(logits, labels):
    shifted = logits - logits.real.max(axis=-1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(log_probs, np.asarray(labels)[..., None], axis=-1)
    return -picked.mean()


def softmax_cross_entropy(logits, labels, step=1e-20):
    logits = np.array(logits, dtype=complex)
    grad = np.zeros(logits.shape)
    for i in np.ndindex(logits.shape):
        logits[i] += 1j * step
        grad[i] = mean_loss(logits, labels).imag / step
        logits[i] = logits[i].real
    return float(mean_loss(logits, labels).real), grad
