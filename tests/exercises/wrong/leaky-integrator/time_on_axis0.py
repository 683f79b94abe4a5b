"""Wrong axis: loops over axis 0, which is the batch axis for (N, T, D) inputs."""

import numpy as np

RIGHT_DIAGNOSES = ("time_axis_first",)


def _window(a):
    w = 1.0 / (1.0 - a)
    return float(w) if np.ndim(w) == 0 else w


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.zeros_like(xs)
    for t in range(xs.shape[0]):
        s = a * s + (1.0 - a) * xs[t]
        states[t] = s
    return states, _window(a)
