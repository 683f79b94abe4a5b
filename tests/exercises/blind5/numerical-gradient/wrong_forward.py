"""Wrong: forward difference (f(x + h e_i) - f(x)) / h instead of the centred difference; its error is about h/2 * f''."""
import numpy as np


def numerical_gradient(f, x, h=1e-5):
    p = np.array(x, dtype=np.float64)
    g = np.zeros_like(p)
    f0 = f(p)
    for idx in np.ndindex(p.shape):
        old = p[idx]
        p[idx] = old + h
        g[idx] = (f(p) - f0) / h
        p[idx] = old
    return g


# What the grader's hint says of this file, truly (the corpus README's table).
RIGHT_DIAGNOSES = ("forward_difference",)
