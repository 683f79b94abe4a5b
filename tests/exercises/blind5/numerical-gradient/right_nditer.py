"""Right: walks a float64 copy with np.nditer(flags=['multi_index'], op_flags=['readwrite']), perturbing through the iterator's element view and restoring the saved value."""
import numpy as np


def numerical_gradient(f, x, h=1e-5):
    p = np.array(x, dtype=np.float64)
    grad = np.empty_like(p)
    it = np.nditer(p, flags=["multi_index"], op_flags=["readwrite"])
    while not it.finished:
        saved = float(it[0])
        it[0] = saved + h
        up = f(p)
        it[0] = saved - h
        down = f(p)
        it[0] = saved
        grad[it.multi_index] = (up - down) / (2.0 * h)
        it.iternext()
    return grad
