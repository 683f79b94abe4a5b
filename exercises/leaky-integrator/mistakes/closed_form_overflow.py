"""Closed form without a loop: s_t = alpha^t (s0 + (1 - alpha) sum_k x_k / alpha^k).

Exact on paper, but alpha^-t overflows on long runs (and divides by zero at alpha = 0).
"""

import numpy as np

HINT = ("Your states become inf or NaN on long sequences and where alpha is 0, although an "
        "average of finite inputs never leaves their range. A closed form that divides by "
        "powers of alpha overflows (or divides by zero) there; compute the states step by step.")


def leaky_integrate(xs, alpha, s0):
    xs = np.asarray(xs, dtype=np.float64)
    a = np.asarray(alpha, dtype=np.float64)
    a_t = a[..., None, :] if a.ndim == 2 else a       # one factor per sequence: add a time axis
    t = np.arange(1, xs.shape[-2] + 1)[:, None]
    powers = a_t ** t                                  # alpha^t for every step
    states = powers * (np.asarray(s0)[..., None, :]
                       + np.cumsum((1.0 - a_t) * xs / powers, axis=-2))
    window = 1.0 / (1.0 - a)
    return states, (float(window) if window.ndim == 0 else window)
