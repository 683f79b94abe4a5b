"""Wrong: works on a float32 copy of x, so x_i + h is rounded to float32 (spacing ~1e-7 near 1) and the differences lose most of their digits."""
import numpy as np


def numerical_gradient(f, x, h=1e-5):
    p = np.array(x, dtype=np.float32)
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
