import numpy as np

HINT = ("Feed a constant input from rest: a moving average must settle at that constant, but "
        "yours settles further from zero. The two weights of the average should sum to one.")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.empty_like(np.asarray(xs, dtype=np.float64))
    for t in range(states.shape[-2]):
        s = a * s + xs[..., t, :]
        states[..., t, :] = s
    window = 1.0 / (1.0 - a)
    return states, (float(window) if window.ndim == 0 else window)
