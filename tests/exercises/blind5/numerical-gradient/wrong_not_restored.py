"""Wrong: never puts an element back, so each element is left at x_i - h and later differences are taken around a shifted point (wrong for non-separable f)."""
import numpy as np


def numerical_gradient(f, x, h=1e-5):
    p = np.array(x, dtype=np.float64)
    g = np.zeros_like(p)
    for idx in np.ndindex(p.shape):
        old = p[idx]
        p[idx] = old + h
        fp = f(p)
        p[idx] = old - h
        fm = f(p)
        g[idx] = (fp - fm) / (2 * h)
    return g


# What the grader's hint says of this file, truly (the corpus README's table).
RIGHT_DIAGNOSES = ("element_not_put_back",)
