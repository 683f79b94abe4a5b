"""States collected in a list and stacked along axis 0: (T, N, D) for a batch."""

import numpy as np

HINT = ("Unbatched you are right, but for a batch your states come back time-first. The "
        "states keep the layout of xs: time on the second-to-last axis, (N, T, D) for a "
        "batch.")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = []
    for t in range(np.shape(xs)[-2]):
        s = a * s + (1.0 - a) * xs[..., t, :]
        states.append(s)
    window = 1.0 / (1.0 - a)
    return np.stack(states), (float(window) if window.ndim == 0 else window)
