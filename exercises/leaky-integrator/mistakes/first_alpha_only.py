"""One factor, the first entry of alpha, smooths every dimension (and every sequence)."""

import numpy as np

HINT = ("Your states are right only where the factor equals the first entry of alpha. Each "
        "dimension (and, for a batch, each sequence) has its own factor: the update is "
        "elementwise, with the whole alpha array.")


def leaky_integrate(xs, alpha, s0):
    a = np.ravel(alpha)[0]
    s = np.array(s0, dtype=np.float64)
    states = np.empty_like(np.asarray(xs, dtype=np.float64))
    for t in range(states.shape[-2]):
        s = a * s + (1.0 - a) * xs[..., t, :]
        states[..., t, :] = s
    window = 1.0 / (1.0 - np.asarray(alpha, dtype=np.float64))
    return states, (float(window) if window.ndim == 0 else window)
