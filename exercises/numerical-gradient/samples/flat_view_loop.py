# expect: verdict=passed score=14 diagnosis=none
"""Another correct method: one float64 copy, walked through its flat view, each element put
back from its saved value."""

import numpy as np


def numerical_gradient(f, x, h=1e-5):
    point = np.array(x, dtype=np.float64)
    flat = point.reshape(-1)  # a view of the copy: writing it moves the point f sees
    grad = np.empty_like(flat)
    for i in range(flat.size):
        saved = flat[i]
        flat[i] = saved + h
        plus = f(point)
        flat[i] = saved - h
        minus = f(point)
        flat[i] = saved
        grad[i] = (plus - minus) / (2.0 * h)
    return grad.reshape(point.shape)
