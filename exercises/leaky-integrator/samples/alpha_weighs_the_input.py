# expect: verdict=failed score=0 diagnosis=swapped_alpha
"""A learner who took alpha as the weight of the new input:
s_t = (1 - alpha) s_{t-1} + alpha x_t."""

import numpy as np


def leaky_integrate(xs, alpha, s0):
    alpha = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = []
    for t in range(xs.shape[-2]):
        s = (1 - alpha) * s + alpha * xs[..., t, :]
        states.append(s)
    window = 1.0 / (1.0 - alpha)
    return np.stack(states, axis=-2), (float(window) if window.ndim == 0 else window)
