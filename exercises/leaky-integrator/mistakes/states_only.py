"""Returns the states alone, not the pair (states, window)."""

import numpy as np

HINT = ("You return one array where two are expected. The function returns a pair: the "
        "states, then the window.")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.empty_like(np.asarray(xs, dtype=np.float64))
    for t in range(states.shape[-2]):
        s = a * s + (1.0 - a) * xs[..., t, :]
        states[..., t, :] = s
    return states
