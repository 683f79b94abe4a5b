"""Wrong: divides the centred difference by h instead of 2h, so every element is twice the gradient."""
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
        p[idx] = old
        g[idx] = (fp - fm) / h
    return g


# What the grader's hint says of this file, truly (the corpus README's table).
RIGHT_DIAGNOSES = ("divided_by_h",)
