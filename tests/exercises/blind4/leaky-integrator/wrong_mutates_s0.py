"""Mistake: updates the state in place starting from the caller's s0, so the caller's array changes."""
import numpy as np


def leaky_integrate(xs, alpha, s0):
    s = s0
    states = np.empty(np.shape(xs))
    for t in range(xs.shape[-2]):
        s *= alpha
        s += (1 - alpha) * xs[..., t, :]
        states[..., t, :] = s
    return states, 1.0 / (1.0 - alpha)


RIGHT_DIAGNOSES = ("changed_input",)
