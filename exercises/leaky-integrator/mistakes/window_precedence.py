import numpy as np

HINT = ("Your states are right but your window shrinks as alpha grows, while a longer "
        "memory should give a longer window. Read your formula the way Python does: which "
        "operation is carried out first?")


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.empty_like(np.asarray(xs, dtype=np.float64))
    for t in range(states.shape[-2]):
        s = a * s + (1.0 - a) * xs[..., t, :]
        states[..., t, :] = s
    window = 1 / 1 - a
    return states, (float(window) if window.ndim == 0 else window)
