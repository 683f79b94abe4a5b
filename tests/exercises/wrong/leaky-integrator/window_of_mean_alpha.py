"""Window computed from the mean alpha: one float for all dimensions."""

import numpy as np

RIGHT_DIAGNOSES = ("window_of_mean_alpha",)


def _run(xs, a, s, steps):
    states = np.zeros_like(xs)
    for t in steps:
        s = a * s + (1.0 - a) * xs[..., t, :]
        states[..., t, :] = s
    return states


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    states = _run(xs, a, np.array(s0, dtype=np.float64), range(xs.shape[-2]))
    return states, float(1.0 / (1.0 - a.mean()))
