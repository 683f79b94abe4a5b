import numpy as np

HINT = ("Both of your outputs look right, but they come back in the wrong places. Check the "
        "order of the tuple the function must return.")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.empty_like(np.asarray(xs, dtype=np.float64))
    for t in range(states.shape[-2]):
        s = a * s + (1.0 - a) * xs[..., t, :]
        states[..., t, :] = s
    window = 1.0 / (1.0 - a)
    return (float(window) if window.ndim == 0 else window), states
