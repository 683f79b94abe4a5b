# expect: verdict=passed score=33 diagnosis=none
"""Another correct method: the log-sum-exp by np.logaddexp.reduce, the right class's logit
picked by np.take_along_axis instead of a one-hot product."""

import numpy as np


def softmax_cross_entropy(logits, labels):
    logits = np.asarray(logits, dtype=np.float64)
    labels = np.asarray(labels)
    lse = np.logaddexp.reduce(logits, axis=-1, keepdims=True)
    picked = np.take_along_axis(logits, labels[..., None], axis=-1)
    count = labels.size
    loss = float(np.sum(lse - picked) / count)
    grad = np.exp(logits - lse)
    right = labels[..., None]
    np.put_along_axis(grad, right, np.take_along_axis(grad, right, axis=-1) - 1.0, axis=-1)
    return loss, grad / count
