"""Mistake: alpha weighs the new input and 1 - alpha the old state (the factor read as a learning rate)."""
import numpy as np


def leaky_integrate(xs, alpha, s0):
    s = np.array(s0, dtype=np.float64)
    states = np.empty(np.shape(xs))
    for t in range(xs.shape[-2]):
        s = (1 - alpha) * s + alpha * xs[..., t, :]
        states[..., t, :] = s
    window = 1.0 / (1.0 - alpha)
    return states, window


RIGHT_DIAGNOSES = ("swapped_alpha",)
