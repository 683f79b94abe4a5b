"""Off by one: the loop runs T - 1 steps, the last state stays 0."""

import numpy as np

HINT = ("Your last state is zero: the loop ends one step too early, so the state after the "
        "last input is never computed. How many steps does a sequence of T inputs take?")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.zeros_like(np.asarray(xs, dtype=np.float64))
    for t in range(states.shape[-2] - 1):
        s = a * s + (1.0 - a) * xs[..., t, :]
        states[..., t, :] = s
    window = 1.0 / (1.0 - a)
    return states, (float(window) if window.ndim == 0 else window)
