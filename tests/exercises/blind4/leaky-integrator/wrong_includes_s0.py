"""Mistake: off by one, stores the state before each update (s0..s_{T-1}) instead of s1..sT."""
import numpy as np


def leaky_integrate(xs, alpha, s0):
    s = np.array(s0, dtype=np.float64)
    states = np.empty(np.shape(xs))
    for t in range(xs.shape[-2]):
        states[..., t, :] = s
        s = alpha * s + (1 - alpha) * xs[..., t, :]
    return states, 1.0 / (1.0 - alpha)


RIGHT_DIAGNOSES = ("initial_state_included",)
