"""The average starts at the first input: s_1 = x_1, s0 never used."""

import numpy as np

HINT = ("Your first state equals the first input, as if the average started from x_1. It "
        "starts from the given initial state, and its first step already mixes s0 with x_1.")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    states = np.empty_like(np.asarray(xs, dtype=np.float64))
    states[..., 0, :] = xs[..., 0, :]
    for t in range(1, states.shape[-2]):
        states[..., t, :] = a * states[..., t - 1, :] + (1.0 - a) * xs[..., t, :]
    window = 1.0 / (1.0 - a)
    return states, (float(window) if window.ndim == 0 else window)
