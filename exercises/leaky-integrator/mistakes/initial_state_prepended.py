import numpy as np

HINT = ("Your output has one state too many. The first returned state is the one computed "
        "after reading x_1; the initial state is an input, not an output.")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = [s]
    for t in range(np.shape(xs)[-2]):
        s = a * s + (1.0 - a) * xs[..., t, :]
        states.append(s)
    window = 1.0 / (1.0 - a)
    return np.stack(states, axis=-2), (float(window) if window.ndim == 0 else window)
