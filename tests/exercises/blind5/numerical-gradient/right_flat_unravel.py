"""Right: perturbs a 1-D view (reshape(-1)) of a float64 copy by flat index and writes the result at np.unravel_index(k, shape)."""
import numpy as np


def numerical_gradient(f, x, h=1e-5):
    point = np.asarray(x).astype(np.float64)  # astype copies
    flat = point.reshape(-1)                   # a view on point
    out = np.zeros(point.shape, dtype=np.float64)
    for k in range(flat.size):
        keep = flat[k]
        flat[k] = keep + h
        a = f(point)
        flat[k] = keep - h
        b = f(point)
        flat[k] = keep
        out[np.unravel_index(k, point.shape)] = (a - b) / (2 * h)
    return out
