"""Wrong: copies x with x.copy() keeping its dtype, so for an integer x, x[i] + h is rounded back to the integer and the gradient comes out 0."""
import numpy as np


def numerical_gradient(f, x, h=1e-5):
    p = np.array(x).copy()
    g = np.zeros(p.shape, dtype=np.float64)
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
RIGHT_DIAGNOSES = ("point_in_the_input_dtype",)
