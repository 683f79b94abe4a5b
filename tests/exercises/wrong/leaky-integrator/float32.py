"""float32 recursion cast back to float64: drifts on long sequences."""

import numpy as np

RIGHT_DIAGNOSES = ("float32_arithmetic",)


def _window(a):
    w = 1.0 / (1.0 - a)
    return float(w) if np.ndim(w) == 0 else w


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float32)
    s = np.array(s0, dtype=np.float32)
    states = np.zeros(xs.shape, dtype=np.float32)
    for t in range(xs.shape[-2]):
        s = a * s + (1 - a) * xs[..., t, :].astype(np.float32)
        states[..., t, :] = s
    return states.astype(np.float64), _window(np.asarray(alpha, dtype=np.float64))
