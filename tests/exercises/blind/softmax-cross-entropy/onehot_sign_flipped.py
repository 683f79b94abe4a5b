"""Returns the gradient as onehot - p (the sign of the gradient flipped)."""

import numpy as np

RIGHT_DIAGNOSES = ("gradient_sign_flipped",)


def softmax_cross_entropy(logits, labels):
    z = np.atleast_2d(logits)
    y = np.atleast_1d(labels)
    n = z.shape[0]
    shifted = z - z.max(axis=-1, keepdims=True)
    lse = np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    log_p = shifted - lse
    onehot = np.eye(z.shape[-1])[y]
    loss = -(onehot * log_p).sum() / n
    grad = (onehot - np.exp(log_p)) / n
    return float(loss), grad.reshape(np.shape(logits))
