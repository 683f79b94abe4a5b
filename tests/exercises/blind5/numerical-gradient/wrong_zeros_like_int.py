"""Wrong: allocates the result with np.zeros_like(x), so for an integer x the gradient is stored in an integer array (values truncated, dtype not float64)."""
import numpy as np


def numerical_gradient(f, x, h=1e-5):
    p = np.array(x, dtype=np.float64)
    g = np.zeros_like(x)
    for idx in np.ndindex(p.shape):
        old = p[idx]
        p[idx] = old + h
        fp = f(p)
        p[idx] = old - h
        fm = f(p)
        p[idx] = old
        g[idx] = (fp - fm) / (2 * h)
    return g


# What the grader's hint says of this file, truly (the corpus README's table).
RIGHT_DIAGNOSES = ("gradient_in_the_input_dtype",)
