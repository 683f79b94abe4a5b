"""Wrong: correct values, but returns them flattened, shape (n,), instead of the shape of x."""
import numpy as np


def numerical_gradient(f, x, h=1e-5):
    p = np.array(x, dtype=np.float64)
    flat = p.ravel()
    g = []
    for k in range(flat.size):
        old = flat[k]
        flat[k] = old + h
        fp = f(flat.reshape(p.shape))
        flat[k] = old - h
        fm = f(flat.reshape(p.shape))
        flat[k] = old
        g.append((fp - fm) / (2 * h))
    return np.array(g)


# What the grader's hint says of this file, truly (the corpus README's table).
RIGHT_DIAGNOSES = ("flat_gradient",)
