"""Weights the input by alpha and the old state by 1 - alpha."""

import numpy as np

RIGHT_DIAGNOSES = ("swapped_alpha", "complement")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=float)
    s = np.array(s0, dtype=float)
    states = np.empty_like(np.asarray(xs, dtype=float))
    for t in range(xs.shape[-2]):
        s = (1 - a) * s + a * xs[..., t, :]
        states[..., t, :] = s
    return states, 1.0 / (1.0 - a) if np.ndim(a) else float(1.0 / (1.0 - a))
