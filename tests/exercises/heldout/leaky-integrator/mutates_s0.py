"""Updates the caller's s0 in place (s = s0; s *= alpha; s += ...), modifying it."""

import numpy as np

RIGHT_DIAGNOSES = ("changed_input",)


def leaky_integrate(xs: np.ndarray, alpha: float | np.ndarray, s0: np.ndarray
                    ) -> tuple[np.ndarray, float | np.ndarray]:
    a = np.asarray(alpha, dtype=np.float64)
    s = s0
    states = np.empty(xs.shape, dtype=np.float64)
    for t in range(xs.shape[-2]):
        s *= a
        s += (1.0 - a) * xs[..., t, :]
        states[..., t, :] = s
    window = 1.0 / (1.0 - a)
    return states, (float(window) if window.ndim == 0 else window)
