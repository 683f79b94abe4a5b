"""Adds the raw input: s = alpha * s + x."""

import numpy as np

RIGHT_DIAGNOSES = ("input_not_scaled",)


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=float)
    s = np.array(s0, dtype=float)
    states = np.empty_like(np.asarray(xs, dtype=float))
    for t in range(xs.shape[-2]):
        s = a * s + xs[..., t, :]
        states[..., t, :] = s
    window = 1.0 / (1.0 - a)
    return states, float(window) if window.ndim == 0 else window
