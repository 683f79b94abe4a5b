# expect: verdict=passed score=34 diagnosis=none
"""Another correct method: the update written as a step towards the input,
s_t = s_{t-1} + (1 - alpha) * (x_t - s_{t-1}), with time moved to the front and back."""

import numpy as np


def leaky_integrate(xs, alpha, s0):
    xs = np.asarray(xs, dtype=np.float64)
    keep = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    steps = []
    for x in np.moveaxis(xs, -2, 0):
        s = s + (1.0 - keep) * (x - s)
        steps.append(s)
    window = 1.0 / (1.0 - keep)
    return np.stack(steps, axis=-2), (float(window) if window.ndim == 0 else window)
