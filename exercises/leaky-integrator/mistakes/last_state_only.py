"""Returns only the final state s_T instead of every state."""

import numpy as np

HINT = ("Your last state is right, but the function must return the whole trajectory: one "
        "state per step of the sequence, not only where it ends.")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    for t in range(np.shape(xs)[-2]):
        s = a * s + (1.0 - a) * xs[..., t, :]
    window = 1.0 / (1.0 - a)
    return s, (float(window) if window.ndim == 0 else window)
