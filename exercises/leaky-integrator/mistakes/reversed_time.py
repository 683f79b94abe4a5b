"""Reads the sequence backwards: x_T first."""

import numpy as np

HINT = ("Your states run through the inputs in the wrong order: the first step must read the "
        "first input, and the last step the last one.")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.empty_like(np.asarray(xs, dtype=np.float64))
    T = states.shape[-2]
    for t in range(T):
        s = a * s + (1.0 - a) * xs[..., T - 1 - t, :]
        states[..., t, :] = s
    window = 1.0 / (1.0 - a)
    return states, (float(window) if window.ndim == 0 else window)
