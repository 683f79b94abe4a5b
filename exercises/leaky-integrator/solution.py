"""Reference: a leaky integrator (exponential moving average) with per-dimension constants."""

import numpy as np


def leaky_integrate(xs: np.ndarray, alpha, s0: np.ndarray):
    """Run s_t = alpha * s_{t-1} + (1 - alpha) * x_t for t = 1..T; return (states, window)."""
    xs = np.asarray(xs, dtype=np.float64)
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)            # a copy: the caller's s0 is not modified
    states = np.empty_like(xs)
    for t in range(xs.shape[-2]):                 # time is the second-to-last axis
        s = a * s + (1.0 - a) * xs[..., t, :]
        states[..., t, :] = s
    window = 1.0 / (1.0 - a)
    return states, (float(window) if window.ndim == 0 else window)
