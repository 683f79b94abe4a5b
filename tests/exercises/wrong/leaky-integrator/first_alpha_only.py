"""Uses the first entry of alpha for every dimension."""

import numpy as np

RIGHT_DIAGNOSES = ("first_alpha_only",)


def _window(a):
    w = 1.0 / (1.0 - a)
    return float(w) if np.ndim(w) == 0 else w


def _run(xs, a, s, steps):
    states = np.zeros_like(xs)
    for t in steps:
        s = a * s + (1.0 - a) * xs[..., t, :]
        states[..., t, :] = s
    return states


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    states = _run(xs, a.ravel()[0], np.array(s0, dtype=np.float64), range(xs.shape[-2]))
    return states, _window(a)
