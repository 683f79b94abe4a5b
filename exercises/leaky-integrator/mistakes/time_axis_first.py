import numpy as np

HINT = ("Unbatched you are right, but a batch goes wrong: your loop runs over the first "
        "axis, which for a batch is the sequences, not the time steps. In this exercise time "
        "is the second-to-last axis of xs: (N, T, D) for a batch.")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.empty_like(np.asarray(xs, dtype=np.float64))
    for t in range(states.shape[0]):
        s = a * s + (1.0 - a) * xs[t]
        states[t] = s
    window = 1.0 / (1.0 - a)
    return states, (float(window) if window.ndim == 0 else window)
