"""Off by one: step t reads x_{t-1} (and x_T wraps round to the first step)."""

import numpy as np

RIGHT_DIAGNOSES = ("shift_index",)


def _window(a):
    w = 1.0 / (1.0 - a)
    return float(w) if np.ndim(w) == 0 else w


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.zeros_like(xs)
    for t in range(xs.shape[-2]):
        s = a * s + (1.0 - a) * xs[..., t - 1, :]
        states[..., t, :] = s
    return states, _window(a)
