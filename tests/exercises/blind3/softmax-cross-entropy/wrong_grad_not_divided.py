"""Mean loss, but the gradient is p - onehot without the division by N."""
import numpy as np


def softmax_cross_entropy(logits, labels):
    z = np.atleast_2d(logits)
    y = np.atleast_1d(labels)
    n = z.shape[0]
    shifted = z - np.max(z, axis=1, keepdims=True)
    log_p = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    loss = -np.mean(log_p[np.arange(n), y])
    dlogits = np.exp(log_p)
    dlogits[np.arange(n), y] -= 1.0
    return float(loss), dlogits.reshape(np.shape(logits))


RIGHT_DIAGNOSES = ("gradient_not_averaged",)
