"""Right: moves time to the front, iterates over it directly, and stacks; window through np.reciprocal."""
import numpy as np


def leaky_integrate(xs, alpha, s0):
    a = alpha if np.ndim(alpha) == 0 else np.asarray(alpha, dtype=np.float64)
    s = np.asarray(s0, dtype=np.float64)
    out = []
    for x in np.moveaxis(xs, -2, 0):
        s = a * s + (1.0 - a) * x
        out.append(s)
    states = np.moveaxis(np.array(out), 0, -2)
    window = float(1.0 / (1.0 - a)) if np.ndim(alpha) == 0 else np.reciprocal(1.0 - a)
    return states, window
