"""One example handled as a batch of one, and its gradient returned with that batch axis:
shape (1, C) where (C,) belongs."""

import numpy as np

HINT = (
    "Your gradient for a single example (logits of shape (C,)) has shape (1, C): the example "
    "was made a batch of one and its batch axis kept. The gradient has the shape of the "
    "logits: give (C,) back for one example, for instance by reshaping the result to "
    "logits.shape."
)


def softmax_cross_entropy(logits, labels):
    batch = logits.reshape(-1, logits.shape[-1])
    rows = np.arange(batch.shape[0])
    labels = np.reshape(labels, -1)
    shifted = batch - batch.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    grad = np.exp(log_p)
    grad[rows, labels] -= 1.0
    return float(-log_p[rows, labels].mean()), grad / batch.shape[0]
