"""Wrong: ignores the h argument and always steps by a hard-coded 1e-5."""
import numpy as np


def numerical_gradient(f, x, h=1e-5):
    step = 1e-5
    p = np.array(x, dtype=np.float64)
    g = np.zeros_like(p)
    for idx in np.ndindex(p.shape):
        old = p[idx]
        p[idx] = old + step
        fp = f(p)
        p[idx] = old - step
        fm = f(p)
        p[idx] = old
        g[idx] = (fp - fm) / (2 * step)
    return g
