"""One window for the whole alpha array, from the mean factor."""

import numpy as np

HINT = ("Your window is a single number, but each factor of alpha has its own memory. "
        "Compute the window factor by factor: it has the shape of alpha.")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.empty_like(np.asarray(xs, dtype=np.float64))
    for t in range(states.shape[-2]):
        s = a * s + (1.0 - a) * xs[..., t, :]
        states[..., t, :] = s
    return states, float(1.0 / (1.0 - np.mean(a)))
