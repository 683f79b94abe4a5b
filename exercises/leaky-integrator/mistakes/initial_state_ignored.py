"""The recursion starts from zeros: s0 is never used."""

import numpy as np

HINT = ("Your states are right only when the initial state is zero. The recursion starts "
        "from the given s0; is every argument of the function used?")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.zeros_like(np.asarray(s0, dtype=np.float64))
    states = np.empty_like(np.asarray(xs, dtype=np.float64))
    for t in range(states.shape[-2]):
        s = a * s + (1.0 - a) * xs[..., t, :]
        states[..., t, :] = s
    window = 1.0 / (1.0 - a)
    return states, (float(window) if window.ndim == 0 else window)
