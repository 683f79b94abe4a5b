"""Writes the gradient by subtracting 1 in place in logits' own buffer, changing the caller's logits."""

import numpy as np

RIGHT_DIAGNOSES = ("changed_input",)


def softmax_cross_entropy(logits, labels):
    z = np.atleast_2d(logits)
    y = np.atleast_1d(labels)
    n = z.shape[0]
    z -= z.max(axis=-1, keepdims=True)
    lse = np.log(np.exp(z).sum(axis=-1, keepdims=True))
    loss = -(z[np.arange(n), y] - lse[:, 0]).mean()
    np.exp(z - lse, out=z)
    z[np.arange(n), y] -= 1.0
    z /= n
    return float(loss), z.reshape(np.shape(logits)).copy()
