"""The window cut off at the sequence length T."""

import numpy as np

HINT = ("Your states are right, but your window never exceeds the number of steps in the "
        "sequence. The window is a property of the factor alone: it does not depend on how "
        "many inputs there are.")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.empty_like(np.asarray(xs, dtype=np.float64))
    T = states.shape[-2]
    for t in range(T):
        s = a * s + (1.0 - a) * xs[..., t, :]
        states[..., t, :] = s
    window = np.minimum(1.0 / (1.0 - a), T)   # "no more memory than there are steps"
    return states, (float(window) if window.ndim == 0 else window)
