"""Correct: the update written as s + (1 - alpha) (x - s)."""

import numpy as np


def _window(a):
    w = 1.0 / (1.0 - a)
    return float(w) if np.ndim(w) == 0 else w


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.zeros_like(xs)
    for t in range(xs.shape[-2]):
        s = s + (1.0 - a) * (xs[..., t, :] - s)
        states[..., t, :] = s
    return states, _window(a)
