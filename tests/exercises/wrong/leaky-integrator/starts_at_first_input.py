"""Initial state taken as x_1 instead of s0."""

import numpy as np

RIGHT_DIAGNOSES = ("starts_at_first_input",)


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
    states = _run(xs, a, xs[..., 0, :].copy(), range(xs.shape[-2]))
    return states, _window(a)
