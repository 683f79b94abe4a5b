"""Every step starts again from s0 instead of the previous state."""

import numpy as np

HINT = ("Each of your states looks as if the sequence had started at that very step: only the "
        "first one is right. The average feeds every new state into the next step. Which "
        "state goes into step t?")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s0 = np.asarray(s0, dtype=np.float64)
    states = np.empty_like(np.asarray(xs, dtype=np.float64))
    for t in range(states.shape[-2]):
        states[..., t, :] = a * s0 + (1.0 - a) * xs[..., t, :]
    window = 1.0 / (1.0 - a)
    return states, (float(window) if window.ndim == 0 else window)
