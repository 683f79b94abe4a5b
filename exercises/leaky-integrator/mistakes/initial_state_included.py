import numpy as np

HINT = ("Your states look shifted by one step in time. The first returned state is the one "
        "computed after reading x_1; the initial state is an input, not an output.")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.empty_like(np.asarray(xs, dtype=np.float64))
    for t in range(states.shape[-2]):
        states[..., t, :] = s
        s = a * s + (1.0 - a) * xs[..., t, :]
    window = 1.0 / (1.0 - a)
    return states, (float(window) if window.ndim == 0 else window)
