"""Window as the mean age alpha / (1 - alpha) of the inputs, one step short."""

import numpy as np

HINT = ("Your states are right, but your window is one step short for every factor. Check it "
        "at alpha = 0: each state is then the current input, a memory of one step, not zero.")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.empty_like(np.asarray(xs, dtype=np.float64))
    for t in range(states.shape[-2]):
        s = a * s + (1.0 - a) * xs[..., t, :]
        states[..., t, :] = s
    window = a / (1.0 - a)
    return states, (float(window) if window.ndim == 0 else window)
