import numpy as np

HINT = ("Test your window at the extremes: with alpha = 0 the state is just the current input "
        "(one step of memory), and as alpha approaches 1 the memory should grow without bound.")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.empty_like(np.asarray(xs, dtype=np.float64))
    for t in range(states.shape[-2]):
        s = a * s + (1.0 - a) * xs[..., t, :]
        states[..., t, :] = s
    with np.errstate(divide="ignore"):
        window = 1.0 / a
    return states, (float(window) if window.ndim == 0 else window)
