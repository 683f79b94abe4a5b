"""Window given as the mean lag alpha / (1 - alpha) instead of 1 / (1 - alpha)."""

import numpy as np

RIGHT_DIAGNOSES = ("window_mean_lag",)


def _run(xs, a, s, steps):
    states = np.zeros_like(xs)
    for t in steps:
        s = a * s + (1.0 - a) * xs[..., t, :]
        states[..., t, :] = s
    return states


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    states = _run(xs, a, np.array(s0, dtype=np.float64), range(xs.shape[-2]))
    w = a / (1.0 - a)
    return states, float(w) if w.ndim == 0 else w
