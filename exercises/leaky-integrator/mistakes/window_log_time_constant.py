import numpy as np

HINT = ("Your states are right but your window is not the one asked for. The statement "
        "defines the window by a formula of its own; a time constant from a logarithm is "
        "another measure of memory, with other values.")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.empty_like(np.asarray(xs, dtype=np.float64))
    for t in range(states.shape[-2]):
        s = a * s + (1.0 - a) * xs[..., t, :]
        states[..., t, :] = s
    with np.errstate(divide="ignore"):
        window = -1.0 / np.log(a)
    return states, (float(window) if window.ndim == 0 else window)
