"""Wrong: works on the caller's array (np.asarray makes no copy of a float64 x) and puts elements back by arithmetic (+h, -2h, +h), so x can come back changed in the last place."""
import numpy as np


def numerical_gradient(f, x, h=1e-5):
    p = np.asarray(x, dtype=np.float64)
    g = np.zeros(p.shape, dtype=np.float64)
    for idx in np.ndindex(p.shape):
        p[idx] += h
        fp = f(p)
        p[idx] -= 2 * h
        fm = f(p)
        p[idx] += h
        g[idx] = (fp - fm) / (2 * h)
    return g


# What the grader's hint says of this file, truly (the corpus README's table).
RIGHT_DIAGNOSES = ("changed_input",)
