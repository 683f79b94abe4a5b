import numpy as np

HINT = ("Think about alpha close to 1: a factor near 1 means long memory, so the state must "
        "hardly move. Which term does your alpha multiply?")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.empty_like(np.asarray(xs, dtype=np.float64))
    for t in range(states.shape[-2]):
        s = (1.0 - a) * s + a * xs[..., t, :]
        states[..., t, :] = s
    window = 1.0 / (1.0 - a)
    return states, (float(window) if window.ndim == 0 else window)
