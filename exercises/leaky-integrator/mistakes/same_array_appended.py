"""Updates one buffer in place and appends it every step: all rows show the last state."""

import numpy as np

HINT = ("Every row of your states is the same, the last one. Your list holds the same array "
        "object T times: it was updated in place after it was stored, so every entry shows "
        "its final value. Store a fresh array for every step.")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = []
    for t in range(np.shape(xs)[-2]):
        s *= a
        s += (1.0 - a) * xs[..., t, :]
        states.append(s)
    window = 1.0 / (1.0 - a)
    return np.stack(states, axis=-2), (float(window) if window.ndim == 0 else window)
