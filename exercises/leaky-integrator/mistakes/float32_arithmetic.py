"""float32 recursion, cast back to float64 at the end."""

import numpy as np

HINT = ("Your values agree with the expected ones to only a few significant digits, and drift "
        "further over the steps. That is the precision of float32: somewhere the arrays were "
        "converted to single precision (np.float32, astype, dtype=...). Keep every step in "
        "float64.")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float32)
    s = np.array(s0, dtype=np.float32)
    x32 = np.asarray(xs, dtype=np.float32)
    states = np.empty_like(x32)
    for t in range(states.shape[-2]):
        s = a * s + (np.float32(1.0) - a) * x32[..., t, :]
        states[..., t, :] = s
    window = 1.0 / (1.0 - np.asarray(alpha, dtype=np.float64))
    return states.astype(np.float64), (float(window) if window.ndim == 0 else window)
